import type { BenchSystem } from './bench-system';
import { measureLiveLatency, type LiveLatencyResult } from './live-latency.bench';
import { format, type TableRow } from './report-table';
import { measureTimelineIngest, type TimelineIngestFigures } from './timeline-ingest.bench';

/** Concurrent tasks publishing one total of timeline events between them. */
export const INGEST_TASK_COUNTS = [10, 100, 1_000] as const;
const INGEST_EVENTS = 10_000;
/** Events per second one agent emits, each for the same time. */
export const LIVE_RATES = [100, 1_000, 5_000] as const;
const LIVE_SECONDS = 3;

export interface ScalingFigures {
  readonly ingest: ReadonlyArray<TimelineIngestFigures>;
  readonly live: ReadonlyArray<LiveLatencyResult>;
}

/**
 * How the timeline's cost grows: ingest with the same events spread over more tasks, and live
 * delivery at higher line rates. Each point has its own baseline measured beside it.
 */
export async function measureScaling(system: BenchSystem): Promise<ScalingFigures> {
  await system.service('transcript');
  const ingest: TimelineIngestFigures[] = [];
  for (const tasks of INGEST_TASK_COUNTS) {
    ingest.push(await measureTimelineIngest({ connection: system.connection, databaseUrl: system.databaseUrl, tasks, messagesPerTask: INGEST_EVENTS / tasks, taskPrefix: `bench-scale${tasks}-` }));
  }
  const gateway = await system.gateway();
  const daemon = await system.sharedDaemon();
  const live: LiveLatencyResult[] = [];
  for (const ratePerSecond of LIVE_RATES) {
    live.push(await measureLiveLatency({ gateway, runtimeId: daemon.runtimeId, connection: system.connection, events: ratePerSecond * LIVE_SECONDS, ratePerSecond }));
  }
  return { ingest, live };
}

export function scalingRows(scaling: ScalingFigures): TableRow[] {
  return [
    ...scaling.ingest.map((point): TableRow => [
      `scaling: ingest ${point.tasks} tasks x ${point.events / point.tasks}`,
      `last row ${format(point.lastRowAfterLastAckMs, 0)} ms after last ack`,
      `${format(point.timelineEventsPerSecond, 0)} events/s`,
      `${format((point.timelineEventsPerSecond / point.rawJetStreamEventsPerSecond) * 100, 1)}% of JS (${format(point.rawJetStreamEventsPerSecond, 0)}/s)`,
    ]),
    ...scaling.live.map((point): TableRow => [
      `scaling: line -> WebSocket ${point.ratePerSecond}/s`,
      `p50 ${format(point.lineToWebSocket.p50)}, p99 ${format(point.lineToWebSocket.p99)} ms`,
      `${point.events} events`,
      `x${format(point.lineToWebSocket.p50 / point.natsPublishToSubscriber.p50, 1)} p50 of raw NATS (${format(point.natsPublishToSubscriber.p50)} ms)`,
    ]),
  ];
}
