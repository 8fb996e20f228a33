import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { LiveMetrics } from './live.metrics';
import { LiveServer } from './live.server';

/** Live delivery over WebSocket: task timelines and the workspace feed of task status changes. */
@Module({ imports: [AuthModule], providers: [LiveServer, LiveMetrics] })
export class LiveModule {}
