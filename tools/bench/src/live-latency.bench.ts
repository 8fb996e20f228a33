import WebSocket from 'ws';
import type { MessagingConnection } from '@switchyard/messaging';
import { summarizeLatencies, type LatencySummary } from './statistics';

export interface LiveLatencyResult {
  /** Fake agent stdout line → daemon adapter → outbox → JetStream → gateway → WebSocket client. */
  readonly lineToWebSocket: LatencySummary;
  /** Core NATS publish → subscriber in this process, at the same rate: the floor under the above. */
  readonly natsPublishToSubscriber: LatencySummary;
  readonly events: number;
  readonly ratePerSecond: number;
}

const wallClockMs = (): number => performance.timeOrigin + performance.now();

async function gatewayCall<T>(gatewayUrl: string, token: string, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${gatewayUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${route}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * Runs one task on the daemon's (fake) Claude runtime, created over REST, and measures for every
 * text line the time from the fake agent writing it to a WebSocket client receiving it.
 */
export async function measureLiveLatency(options: {
  readonly gatewayUrl: string;
  readonly token: string;
  readonly runtimeId: string;
  readonly connection: MessagingConnection;
  readonly events: number;
  readonly ratePerSecond: number;
}): Promise<LiveLatencyResult> {
  const { gatewayUrl, token } = options;
  const deadline = Date.now() + 60_000;
  while (!(await gatewayCall<{ runtimes: Array<{ runtimeId: string }> }>(gatewayUrl, token, 'GET', '/api/runtimes')).runtimes.some((runtime) => runtime.runtimeId === options.runtimeId)) {
    if (Date.now() > deadline) throw new Error(`runtime ${options.runtimeId} never registered`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const agent = await gatewayCall<{ id: string }>(gatewayUrl, token, 'POST', '/api/agents', { name: `bench-${Date.now()}`, runtimeId: options.runtimeId });
  const task = await gatewayCall<{ taskId: string }>(gatewayUrl, token, 'POST', '/api/tasks', { agentId: agent.id, prompt: `[[fake events=${options.events} rate=${options.ratePerSecond}]]` });

  const latencies: number[] = [];
  await new Promise<void>((resolve, reject) => {
    const socket = new WebSocket(`${gatewayUrl.replace(/^http/, 'ws')}/api/live`, { headers: { authorization: `Bearer ${token}` } });
    const timer = setTimeout(() => reject(new Error(`only ${latencies.length} of ${options.events} events arrived`)), 120_000);
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

  return {
    lineToWebSocket: summarizeLatencies(latencies),
    natsPublishToSubscriber: await measureNatsPublishToSubscriber(options.connection, options.events, options.ratePerSecond),
    events: options.events,
    ratePerSecond: options.ratePerSecond,
  };
}

async function measureNatsPublishToSubscriber(connection: MessagingConnection, events: number, ratePerSecond: number): Promise<LatencySummary> {
  const subject = connection.namespace.subject('bench.live.baseline');
  const subscription = connection.nats.subscribe(subject, { max: events });
  await connection.nats.flush();
  const latencies: number[] = [];
  const received = (async () => {
    for await (const message of subscription) latencies.push(wallClockMs() - Number(message.string()));
  })();
  const startedAt = performance.now();
  for (let index = 0; index < events; index += 1) {
    const wait = startedAt + (index * 1_000) / ratePerSecond - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    connection.nats.publish(subject, wallClockMs().toFixed(3));
  }
  await received;
  return summarizeLatencies(latencies);
}
