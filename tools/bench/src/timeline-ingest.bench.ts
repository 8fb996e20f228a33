import { Client } from 'pg';
import { AckPolicy } from '@nats-io/jetstream';
import { messageIds, subjects, type AgentMessage } from '@switchyard/contracts';
import { provisionStreams, publish, type MessagingConnection } from '@switchyard/messaging';
import { benchmarkNatsClients } from '@switchyard/messaging/testing';
import { createMessageSanitizer } from '@switchyard/redaction';
import { format, type TableRow } from './report-table';
import { elapsedMs } from './statistics';
import { BENCH_DAEMON_ID, timelineEvent } from './timeline-messages';

/** The daemon outbox's publish window per task (`services/daemon/src/outbox/task-message.outbox.ts`). */
const OUTBOX_PUBLISH_WINDOW = 128;
const encoder = new TextEncoder();

export interface TimelineIngestFigures {
  readonly tasks: number;
  readonly events: number;
  /** Average encoded event size. */
  readonly eventBytes: number;
  /** Daemon-style publish (per task in seq order, a window in flight) → committed `task_message` rows. */
  readonly timelineEventsPerSecond: number;
  /** How long after the last publish was acknowledged the last row was committed (projector lag). */
  readonly lastRowAfterLastAckMs: number;
  /** The same payloads: JetStream async publish (many in flight) and a pull consumer acking each. */
  readonly rawJetStreamEventsPerSecond: number;
  /** The same rows: multi-row inserts (`unnest`, 500 per statement) on one connection, no projector. */
  readonly rawPostgresRowsPerSecond: number;
}

/**
 * Timeline ingest with `tasks` concurrent tasks, beside two baselines measured on the same
 * payloads in the same run: what JetStream alone and Postgres alone can move.
 */
export async function measureTimelineIngest(options: {
  readonly connection: MessagingConnection;
  readonly databaseUrl: string;
  readonly tasks: number;
  readonly messagesPerTask: number;
  /** Task ids start with it, so two runs can share a database. */
  readonly taskPrefix?: string;
  /** The raw baseline's stream replicas: a run on a cluster compares with a replicated stream as well. */
  readonly rawReplicas?: number;
}): Promise<TimelineIngestFigures> {
  const { connection } = options;
  const prefix = options.taskPrefix ?? 'bench-';
  const events = options.tasks * options.messagesPerTask;
  // As on a daemon: redacted and cleaned before publish, with the task's exact secrets.
  const sanitize = createMessageSanitizer({ exactSecrets: ['bench-agent-env-secret-value', 'stt_bench-task-token-value'] });
  const sample = Array.from({ length: 400 }, (_, seq) => timelineEvent('bench-size', seq, sanitize));
  const eventBytes = Math.round(sample.reduce((total, event) => total + Buffer.byteLength(JSON.stringify(event)), 0) / sample.length);

  const rawJetStreamEventsPerSecond = await measureRawJetStream(connection, events, sanitize, options.rawReplicas ?? 1);
  const rawPostgresRowsPerSecond = await measureRawPostgres(options.databaseUrl, events, sanitize);

  const database = new Client({ connectionString: options.databaseUrl });
  await database.connect();
  try {
    const countRows = async (prefix: string): Promise<number> =>
      Number((await database.query<{ count: string }>('select count(*) from task_message where task_id like $1', [`${prefix}%`])).rows[0]!.count);
    /**
     * Each task's messages as the daemon's outbox holds them: built, sanitized and encoded once when
     * the agent's line arrived (the daemon section measures that work), so before the clock, as the
     * raw baseline's payloads are.
     */
    const prepareTasks = async (prefix: string, perTask: number): Promise<Array<Array<{ subject: string; body: Uint8Array; messageId: string }>>> => {
      await holdAttempts(database, Array.from({ length: options.tasks }, (_, task) => `${prefix}${task}`));
      return Array.from({ length: options.tasks }, (_, task) => {
        const taskId = `${prefix}${task}`;
        return Array.from({ length: perTask }, (_, seq) => {
          const envelope = timelineEvent(taskId, seq, sanitize);
          return { subject: subjects.forEvent(envelope, BENCH_DAEMON_ID), body: encoder.encode(JSON.stringify(envelope)), messageId: messageIds.taskMessage({ publisher: BENCH_DAEMON_ID, taskId, seq }) };
        });
      });
    };
    // Like the daemon's outbox: one task's messages in seq order, a window of them in flight, the
    // next window once the whole window is acknowledged.
    const publishTasks = (tasks: Array<Array<{ subject: string; body: Uint8Array; messageId: string }>>): Promise<unknown> =>
      Promise.all(
        tasks.map(async (messages) => {
          for (let first = 0; first < messages.length; first += OUTBOX_PUBLISH_WINDOW) {
            await Promise.all(
              messages.slice(first, first + OUTBOX_PUBLISH_WINDOW).map((message) => publish(connection, { subject: message.subject, data: message.body, messageId: message.messageId, retry: { maxAttempts: Infinity } })),
            );
          }
        }),
      );
    const waitForRows = async (prefix: string, expected: number): Promise<void> => {
      const deadline = Date.now() + 120_000;
      while ((await countRows(prefix)) < expected) {
        if (Date.now() > deadline) throw new Error(`timeline ingest: rows for ${prefix} did not reach ${expected}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    // Warm-up: the projector's consumer exists and the code paths are hot before the clock runs.
    await publishTasks(await prepareTasks(`${prefix}warmup-`, 8));
    await waitForRows(`${prefix}warmup-`, options.tasks * 8);
    const prepared = await prepareTasks(`${prefix}timeline-`, options.messagesPerTask);
    const start = process.hrtime.bigint();
    await publishTasks(prepared);
    const published = process.hrtime.bigint();
    await waitForRows(`${prefix}timeline-`, events);
    const timelineEventsPerSecond = events / (elapsedMs(start) / 1000);
    const lastRowAfterLastAckMs = elapsedMs(published);
    return { tasks: options.tasks, events, eventBytes, timelineEventsPerSecond, lastRowAfterLastAckMs, rawJetStreamEventsPerSecond, rawPostgresRowsPerSecond };
  } finally {
    await database.end();
  }
}

/** JetStream alone: every event published asynchronously (a window in flight) and consumed with acks. */
/**
 * The projector stores a message only from the daemon holding its attempt: the bench's tasks get
 * that holder the way a claim would record it (a finished attempt 1 of the bench daemon, so the
 * queue's sweeper has nothing to do with them). Outside the clock.
 */
async function holdAttempts(database: Client, taskIds: readonly string[]): Promise<void> {
  await database.query(
    `insert into agent_task_queue (task_id, workspace_id, agent_id, runtime_id, source_kind, priority, status, attempt, max_attempts, enqueued_at, daemon_id, version)
     select id, 'default', 'bench-agent', 'bench-runtime', 'quick_create', 0, 'completed', 1, 1, now(), $2, 1 from unnest($1::text[]) as id
     on conflict (task_id) do nothing`,
    [taskIds, BENCH_DAEMON_ID],
  );
}

async function measureRawJetStream(connection: MessagingConnection, events: number, sanitize: (message: AgentMessage) => AgentMessage, replicas: number): Promise<number> {
  const stream = 'BENCH_RAW_TIMELINE';
  await provisionStreams(connection, [{ name: stream, subjects: ['bench.raw.>'], storage: 'file', maxBytes: 256 * 1024 * 1024, replicas }]);
  const streamName = connection.namespace.stream(stream);
  // The baseline is nats.js itself, without our layer.
  const { jetstream, manager } = benchmarkNatsClients(connection);
  await manager.consumers.add(streamName, { durable_name: 'bench-raw', ack_policy: AckPolicy.Explicit, max_ack_pending: 10_000 });
  const payloads = Array.from({ length: events }, (_, index) => new TextEncoder().encode(JSON.stringify(timelineEvent(`bench-raw-${index % 100}`, index, sanitize))));
  const consumer = await jetstream.consumers.get(streamName, 'bench-raw');
  const start = process.hrtime.bigint();
  const consuming = (async () => {
    const messages = await consumer.consume({ max_messages: 1_000 });
    let received = 0;
    for await (const message of messages) {
      message.ack();
      received += 1;
      if (received === events) break;
    }
    await messages.close();
  })();
  const window = 1_000;
  for (let offset = 0; offset < events; offset += window) {
    await Promise.all(
      payloads.slice(offset, offset + window).map((payload, index) =>
        jetstream.publish(connection.namespace.subject(`bench.raw.task-${(offset + index) % 100}`), payload, { msgID: `raw:${offset + index}` }),
      ),
    );
  }
  await consuming;
  const seconds = elapsedMs(start) / 1000;
  await manager.streams.delete(streamName);
  return events / seconds;
}

/** Postgres alone: the projector's row shape, 500 rows per `insert ... select from unnest(...)`. */
async function measureRawPostgres(databaseUrl: string, rows: number, sanitize: (message: AgentMessage) => AgentMessage): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('create temporary table bench_task_message (like task_message including all)');
    const prepared = Array.from({ length: rows }, (_, index) => {
      const event = timelineEvent(`bench-pg-${index % 100}`, index, sanitize);
      const message = event.payload.message;
      return {
        id: event.eventId,
        taskId: event.payload.taskId,
        seq: index,
        type: message.type.replace('-', '_'),
        tool: 'tool' in message ? (message.tool ?? null) : null,
        callId: 'callId' in message ? message.callId : null,
        content: message.type === 'text' || message.type === 'thinking' ? message.text : null,
        input: message.type === 'tool-use' ? JSON.stringify(message.input) : null,
        output: message.type === 'tool-result' ? message.output : null,
        status: message.type === 'tool-result' ? message.status : null,
        createdAt: event.occurredAt,
      };
    });
    const statement = `
      insert into bench_task_message (id, task_id, seq, attempt, type, tool, call_id, content, input, output, output_truncated, tool_status, error_code, created_at)
      select id, task_id, seq, 1, type, tool, call_id, content, input::jsonb, output, false, tool_status, null, created_at
      from unnest($1::uuid[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::timestamptz[])
        as r(id, task_id, seq, type, tool, call_id, content, input, output, tool_status, created_at)
      on conflict (task_id, seq) do nothing`;
    const start = process.hrtime.bigint();
    for (let offset = 0; offset < rows; offset += 500) {
      const batch = prepared.slice(offset, offset + 500);
      await client.query('begin');
      await client.query(statement, [
        batch.map((row) => row.id),
        batch.map((row) => row.taskId),
        batch.map((row) => row.seq),
        batch.map((row) => row.type),
        batch.map((row) => row.tool),
        batch.map((row) => row.callId),
        batch.map((row) => row.content),
        batch.map((row) => row.input),
        batch.map((row) => row.output),
        batch.map((row) => row.status),
        batch.map((row) => row.createdAt),
      ]);
      await client.query('commit');
    }
    return rows / (elapsedMs(start) / 1000);
  } finally {
    await client.end();
  }
}

/** `label` names the NATS it ran on (e.g. `R3`) when a run has more than one. */
export function timelineRows(timeline: TimelineIngestFigures, label = ''): TableRow[] {
  const ofJetStream = (timeline.timelineEventsPerSecond / timeline.rawJetStreamEventsPerSecond) * 100;
  const ofPostgres = (timeline.timelineEventsPerSecond / timeline.rawPostgresRowsPerSecond) * 100;
  const on = label ? ` ${label}` : '';
  return [
    [`raw JetStream async pub + consume${on}`, '', `${format(timeline.rawJetStreamEventsPerSecond, 0)} events/s`, '1.00 (baseline)'],
    ['raw Postgres insert (500 rows/stmt)', '', `${format(timeline.rawPostgresRowsPerSecond, 0)} rows/s`, '1.00 (baseline)'],
    [
      `timeline ingest${on} (${timeline.tasks} tasks, ${timeline.eventBytes} B)`,
      `last row ${format(timeline.lastRowAfterLastAckMs, 0)} ms after last ack`,
      `${format(timeline.timelineEventsPerSecond, 0)} events/s`,
      `${format(ofJetStream, 1)}% of JS, ${format(ofPostgres, 1)}% of PG`,
    ],
  ];
}
