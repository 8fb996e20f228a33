import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { LiveServer } from './live.server';

/** Live delivery over WebSocket: task timelines and the workspace feed of task status changes. */
@Module({ imports: [AuthModule], providers: [LiveServer] })
export class LiveModule {}
