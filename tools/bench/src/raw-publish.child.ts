// The daemon section's baseline, run as a bare Node process of its own (`node dist/.../raw-publish.child.js`):
// nats.js JetStream async publish of the timeline payloads a daemon publishes for the fake agent,
// with nothing of ours on the path, and the CPU this process spent on it (`process.cpuUsage()`).
// Environment: NATS_URL, NATS_CREDENTIALS_FILE, SWITCHYARD_NAMESPACE, RAW_PUBLISH_SUBJECT_PREFIX
// (a subject of a stream the bench made), RAW_PUBLISH_EVENTS. Prints one JSON line of `RawPublishFigures`.
import { createEvent, messageIds } from '@switchyard/contracts';
import { connectMessaging } from '@switchyard/messaging';
import { benchmarkNatsClients } from '@switchyard/messaging/testing';

export interface RawPublishFigures {
  readonly events: number;
  /** CPU this process used while publishing (user + system), seconds. */
  readonly cpuSeconds: number;
  readonly wallSeconds: number;
}

/** Publishes in flight at once, as the timeline section's raw baseline does. */
const WINDOW = 1_000;
/** Spread over as many task subjects as the load runs tasks. */
const TASKS = 50;

function required(key: string): string {
  const value = process.env[key];
  if (!value) throw new Error(`${key} is not set`);
  return value;
}

/** What the daemon publishes for one fake agent line (`event <n> sent=<ms>`), serialized once. */
function payloads(events: number): Array<{ subject: string; body: Uint8Array; messageId: string }> {
  const encoder = new TextEncoder();
  const prefix = required('RAW_PUBLISH_SUBJECT_PREFIX');
  return Array.from({ length: events }, (_, index) => {
    const taskId = `bench-raw-publish-${index % TASKS}`;
    const seq = Math.floor(index / TASKS);
    const event = createEvent({ type: 'task.message', payload: { taskId, seq, attempt: 1, message: { type: 'text', text: `event ${seq} sent=${Date.now().toFixed(3)}` } } });
    return { subject: `${prefix}.${taskId}`, body: encoder.encode(JSON.stringify(event)), messageId: messageIds.taskMessage({ publisher: 'bench-raw', taskId, seq }) };
  });
}

async function main(): Promise<void> {
  const events = Number(required('RAW_PUBLISH_EVENTS'));
  const connection = await connectMessaging({ url: required('NATS_URL').split(','), name: 'bench-raw-publish', namespace: required('SWITCHYARD_NAMESPACE'), credentialsFile: required('NATS_CREDENTIALS_FILE') });
  try {
    const { jetstream } = benchmarkNatsClients(connection);
    const messages = payloads(events);
    const cpuAtStart = process.cpuUsage();
    const startedAt = performance.now();
    for (let offset = 0; offset < events; offset += WINDOW) {
      await Promise.all(messages.slice(offset, offset + WINDOW).map((message) => jetstream.publish(connection.namespace.subject(message.subject), message.body, { msgID: message.messageId })));
    }
    const cpu = process.cpuUsage(cpuAtStart);
    const figures: RawPublishFigures = { events, cpuSeconds: (cpu.user + cpu.system) / 1e6, wallSeconds: (performance.now() - startedAt) / 1_000 };
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } finally {
    await connection.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`raw-publish: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
