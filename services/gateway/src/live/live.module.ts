import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';

/** Live delivery over WebSocket: task timelines and the workspace feed of task status changes. */
@Module({ imports: [AuthModule] })
export class LiveModule {}
