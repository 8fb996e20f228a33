import WebSocket from 'ws';
import { subjects } from '@switchyard/contracts';
import type { MessagingConnection } from '@switchyard/messaging';
import { benchmarkNatsClients } from '@switchyard/messaging/testing';
import type { GatewayClient } from './gateway.client';
import { fakePrompt } from './fake-agent/fake-prompt';
import { format, type TableRow } from './report-table';
import { summarizeLatencies, wallClockMs, type LatencySummary } from './statistics';

export interface LiveLatencyResult {
  /** Fake agent stdout line → daemon adapter → outbox → JetStream → gateway → WebSocket client. */
  readonly lineToWebSocket: LatencySummary;
  /**
   * The same lines seen by a core NATS subscriber on the task's message subject: the daemon's share
   * (adapter, outbox, publish). The rest of `lineToWebSocket` is the gateway's (consumer, WebSocket).
   */
  readonly lineToNats: LatencySummary;
  /** Core NATS publish → subscriber in this process, at the same rate: the floor under the above. */
  readonly natsPublishToSubscriber: LatencySummary;
  readonly events: number;
  readonly ratePerSecond: number;
}

/**
 * Runs one task on the daemon's (fake) Claude runtime, created over REST, and measures for every
 * text line the time from the fake agent writing it to a WebSocket client receiving it.
 */
export async function measureLiveLatency(options: {
  readonly gateway: GatewayClient;
  readonly runtimeId: string;
  readonly connection: MessagingConnection;
  readonly events: number;
  readonly ratePerSecond: number;
}): Promise<LiveLatencyResult> {
  const { gateway } = options;
  const agentId = await gateway.createAgent({ name: `bench-live-${Date.now()}`, runtimeId: options.runtimeId });
  const task = await gateway.createTask({ agentId, prompt: fakePrompt({ events: options.events, rate: options.ratePerSecond }) });
  // The agent spawns tens of ms after the REST answer: time enough to subscribe before its first line.
  const streamArrivals = recordLineArrivals(options.connection, task.taskId);

  const latencies: number[] = [];
  await new Promise<void>((resolve, reject) => {
    const socket = new WebSocket(`${gateway.url.replace(/^http/, 'ws')}/api/live`, { headers: { authorization: `Bearer ${gateway.token}` } });
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`only ${latencies.length} of ${options.events} events arrived`));
    }, 120_000);
    socket.on('open', () => socket.send(JSON.stringify({ type: 'subscribe', taskId: task.taskId })));
    socket.on('message', (data: Buffer) => {
      const receivedAt = wallClockMs();
      const frame = JSON.parse(data.toString('utf8')) as { type: string; entry?: { content: string | null } };
      const sent = frame.type === 'timeline' ? /sent=([\d.]+)/.exec(frame.entry?.content ?? '') : null;
      if (sent) latencies.push(receivedAt - Number(sent[1]));
      if (latencies.length === options.events) {
        clearTimeout(timer);
        socket.close();
        resolve();
      }
    });
    socket.on('error', reject);
  });

  const lineToNats = streamArrivals.stop();
  return {
    lineToWebSocket: summarizeLatencies(latencies),
    lineToNats,
    natsPublishToSubscriber: await measureNatsPublishToSubscriber(options.connection, options.events, options.ratePerSecond),
    events: options.events,
    ratePerSecond: options.ratePerSecond,
  };
}

/** Every `sent=` stamp published on the task's `task.message` subject, timed on arrival. */
function recordLineArrivals(connection: MessagingConnection, taskId: string): { stop(): LatencySummary } {
  const subscription = benchmarkNatsClients(connection).nats.subscribe(connection.namespace.subject(subjects.aggregateEventFilter('task.message', taskId)));
  const latencies: number[] = [];
  void (async () => {
    for await (const message of subscription) {
      const receivedAt = wallClockMs();
      const sent = /sent=([\d.]+)/.exec(message.string());
      if (sent) latencies.push(receivedAt - Number(sent[1]));
    }
  })();
  return {
    stop() {
      subscription.unsubscribe();
      return summarizeLatencies(latencies);
    },
  };
}

async function measureNatsPublishToSubscriber(connection: MessagingConnection, events: number, ratePerSecond: number): Promise<LatencySummary> {
  const subject = connection.namespace.subject('bench.live.baseline');
  // The baseline is nats.js itself, without our layer.
  const { nats } = benchmarkNatsClients(connection);
  const subscription = nats.subscribe(subject, { max: events });
  await nats.flush();
  const latencies: number[] = [];
  const received = (async () => {
    for await (const message of subscription) latencies.push(wallClockMs() - Number(message.string()));
  })();
  const startedAt = performance.now();
  for (let index = 0; index < events; index += 1) {
    const wait = startedAt + (index * 1_000) / ratePerSecond - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    nats.publish(subject, wallClockMs().toFixed(3));
  }
  await received;
  return summarizeLatencies(latencies);
}

export function liveRows(live: LiveLatencyResult): TableRow[] {
  const summary = (figures: LatencySummary): string => `p50 ${format(figures.p50)}, p95 ${format(figures.p95)}, p99 ${format(figures.p99)} ms`;
  return [
    [`raw NATS pub -> sub (${live.ratePerSecond}/s, baseline)`, summary(live.natsPublishToSubscriber), `${live.events} events`, '1.00'],
    [
      `agent line -> WebSocket (${live.ratePerSecond}/s)`,
      summary(live.lineToWebSocket),
      `${live.events} events`,
      `x${format(live.lineToWebSocket.p50 / live.natsPublishToSubscriber.p50, 1)} p50 of raw NATS`,
    ],
    [`  of which agent line -> NATS (daemon)`, summary(live.lineToNats), `${live.lineToNats.count} events`, `x${format(live.lineToNats.p50 / live.natsPublishToSubscriber.p50, 1)} p50 of raw NATS`],
  ];
}
