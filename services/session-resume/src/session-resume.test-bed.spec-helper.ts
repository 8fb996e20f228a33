import { Client } from 'pg';
import {
  HEADERS,
  SERVICE_PUBLISHERS,
  SESSION_COMMAND_CATALOG,
  STREAM_CATALOG,
  createEvent,
  messageIds,
  subjects,
  type CommandReply,
  type ResumeDecision,
  type SessionResolvePayload,
  type SwitchyardEvent,
  uuidv7,
} from '@switchyard/contracts';
import { publish, requestReply, type MessagingConnection } from '@switchyard/messaging';
import { readStream } from '@switchyard/messaging/testing';
import { type ServiceUnderTest, connectTestMessaging } from '@switchyard/testing';

/** The daemon the test bed stands in for: it publishes the session events and asks `session.resolve`. */
export const TEST_DAEMON_ID = 'daemon-test-bed';
/** Another enrolled daemon, holding none of the test daemon's attempts. */
export const OTHER_DAEMON_ID = 'daemon-intruder';
/** The runtime a holder is seeded on when the event names none (a retirement). */
const DEFAULT_RUNTIME_ID = 'runtime-1';

type SqlClient = { query(sql: string, parameters?: unknown[]): Promise<unknown> };

/**
 * Makes `daemonId` the holder of a task's attempt, as the queue's claim writes it: the attempt's
 * `task.claimed` event in the record, and the task's `agent_task_queue` row naming its runtime (kept
 * from the first seed, as a task never changes runtime), its latest attempt and that attempt's
 * daemon, live. Session-resume's tests have no queue, so they seed its rows.
 */
export async function seedAttemptHolder(runner: SqlClient, holder: { taskId: string; attempt: number; daemonId: string; runtimeId: string }): Promise<void> {
  const { taskId, attempt, daemonId, runtimeId } = holder;
  const claimed = createEvent({ type: 'task.claimed', payload: { taskId, attempt, daemonId, runtimeId, startBy: new Date(Date.now() + 60_000).toISOString() } });
  await runner.query(
    `insert into outbox_event (id, aggregate_id, version, type, subject, payload, occurred_at, published_at)
     values ($1, $2, $3, 'task.claimed', $4, $5, now(), now()) on conflict (aggregate_id, version) do nothing`,
    [claimed.eventId, taskId, attempt, subjects.forEvent(claimed, SERVICE_PUBLISHERS.queue), JSON.stringify(claimed)],
  );
  await runner.query(
    `insert into agent_task_queue (task_id, workspace_id, agent_id, runtime_id, source_kind, priority, status, attempt, max_attempts, enqueued_at, daemon_id, version)
     values ($1, 'default', 'agent-1', $4, 'quick_create', 0, 'dispatched', $2, $2, now(), $3, $2)
     on conflict (task_id) do update set attempt = excluded.attempt, daemon_id = excluded.daemon_id, max_attempts = excluded.max_attempts, status = 'dispatched'
       where agent_task_queue.attempt < excluded.attempt`,
    [taskId, attempt, daemonId, runtimeId],
  );
}

/** Who publishes an event in the system: the daemon its session events, the queue's relay the rest. */
export function publisherOf(event: SwitchyardEvent): string {
  return event.type.startsWith('session.') ? TEST_DAEMON_ID : SERVICE_PUBLISHERS.queue;
}

/** Talks to a session-resume service under test as the rest of the system does: events in, `session.resolve` out. */
export class SessionResumeTestBed {
  private readonly heldAttempts = new Set<string>();
  private readonly daemons = new Map<string, MessagingConnection>();

  private constructor(
    readonly connection: MessagingConnection,
    private readonly database: Client,
    private readonly namespace: string,
  ) {}

  static async connect(service: ServiceUnderTest): Promise<SessionResumeTestBed> {
    const connection = await connectTestMessaging({ name: 'session-resume-test', namespace: service.namespace });
    const database = new Client({ connectionString: service.databaseUrl });
    await database.connect();
    return new SessionResumeTestBed(connection, database, service.namespace);
  }

  /**
   * Publishes events as the queue's relay and the daemons do, the test daemon holding the attempt
   * of each session event it publishes (seeded the first time); `copy` gives a redelivered
   * duplicate a new message id.
   */
  async publish(events: readonly SwitchyardEvent[], options: { copy?: boolean } = {}): Promise<void> {
    for (const event of events) {
      if (event.type === 'session.pinned') await this.holdAttempt({ taskId: event.payload.taskId, attempt: event.payload.attempt, runtimeId: event.payload.runtimeId });
      if (event.type === 'session.retired' && event.payload.taskId !== null) await this.holdAttempt({ taskId: event.payload.taskId, attempt: 1 });
      await publish(this.connection, {
        subject: subjects.forEvent(event, publisherOf(event)),
        data: event,
        messageId: options.copy ? `${messageIds.forEvent(event, publisherOf(event))}:copy` : messageIds.forEvent(event, publisherOf(event)),
        headers: { [HEADERS.eventType]: event.type },
      });
    }
  }

  /** Publishes session events as another enrolled daemon would, on its own subjects: nothing is seeded for it. */
  async publishAsDaemon(daemonId: string, events: readonly SwitchyardEvent[]): Promise<void> {
    const connection = await this.daemonConnection(daemonId);
    for (const event of events) {
      await publish(connection, { subject: subjects.forEvent(event, daemonId), data: event, messageId: messageIds.forEvent(event, daemonId), headers: { [HEADERS.eventType]: event.type } });
    }
  }

  /** Makes `daemonId` (the test daemon by default) the holder of the attempt, once per attempt. */
  async holdAttempt(holder: { taskId: string; attempt: number; runtimeId?: string; daemonId?: string }): Promise<void> {
    const { taskId, attempt, runtimeId = DEFAULT_RUNTIME_ID, daemonId = TEST_DAEMON_ID } = holder;
    const key = JSON.stringify([taskId, attempt]);
    if (this.heldAttempts.has(key)) return;
    await seedAttemptHolder(this.database, { taskId, attempt, daemonId, runtimeId });
    this.heldAttempts.add(key);
  }

  async publishRaw(subject: string, text: string): Promise<void> {
    await publish(this.connection, { subject, data: new TextEncoder().encode(text), messageId: uuidv7() });
  }

  /**
   * Asks as the daemon that claimed the task would: by default the test daemon, holding the task's
   * first attempt on the asked runtime (seeded the first time). With `holds: false` nothing is
   * seeded; another `sender` asks as that enrolled daemon, on its own subject.
   */
  async resolve(payload: SessionResolvePayload, options: { sender?: string; holds?: boolean } = {}): Promise<CommandReply<ResumeDecision>> {
    const { sender = TEST_DAEMON_ID, holds = sender === TEST_DAEMON_ID } = options;
    if (holds) await this.holdAttempt({ taskId: payload.taskId, attempt: 1, runtimeId: payload.runtimeId, daemonId: sender });
    const requestId = uuidv7();
    const envelope = SESSION_COMMAND_CATALOG['session.resolve'].request.parse({ requestId, command: 'session.resolve', schemaVersion: 1, correlationId: requestId, payload });
    return this.send(envelope, { sender });
  }

  /** Sends a request body as it is, valid or not. */
  async send(envelope: { requestId: string; [field: string]: unknown }, options: { sender?: string } = {}): Promise<CommandReply<ResumeDecision>> {
    const { requestId } = envelope;
    const { sender = TEST_DAEMON_ID } = options;
    const connection = sender === TEST_DAEMON_ID ? this.connection : await this.daemonConnection(sender);
    return requestReply<unknown, ResumeDecision>(connection, {
      subject: subjects.command('session.resolve', sender),
      data: envelope,
      requestId,
      timeoutMs: 10_000,
      responseSchema: SESSION_COMMAND_CATALOG['session.resolve'].result,
    });
  }

  /** Asks until the answer is the expected one (the index is projected asynchronously), then returns it. */
  async eventually(payload: SessionResolvePayload, expected: ResumeDecision, timeoutMs = 15_000): Promise<CommandReply<ResumeDecision>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const reply = await this.resolve(payload);
      if (reply.ok && JSON.stringify(reply.result) === JSON.stringify(expected)) return reply;
      if (Date.now() > deadline) return reply;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Waits until the index has the task's row in the given state. */
  async indexed(taskId: string, predicate: (entry: Record<string, unknown>) => boolean): Promise<void> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const [row] = (await this.database.query<{ entry: Record<string, unknown> }>('select entry from session_resume_task where task_id = $1', [taskId])).rows;
      if (row && predicate(row.entry)) return;
      if (Date.now() > deadline) throw new Error(`task ${taskId} not indexed as expected: ${JSON.stringify(row?.entry)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Waits until these consumers have a checkpoint row (or 15 s pass), and returns every session-resume checkpoint's consumer. */
  async checkpointed(consumers: readonly string[]): Promise<string[]> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const rows = await this.query<{ consumer_name: string }>('select consumer_name from consumer_checkpoint where consumer_name like $1 order by 1', ['%session-resume-%']);
      const names = rows.map((row) => row.consumer_name);
      if (consumers.every((consumer) => names.includes(consumer)) || Date.now() > deadline) return names;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async query<Row extends Record<string, unknown>>(sql: string, parameters: unknown[] = []): Promise<Row[]> {
    return (await this.database.query<Row>(sql, parameters)).rows;
  }

  async deadLetters(consumer: string): Promise<Array<{ subject: string; reason: string | undefined }>> {
    return (await this.deadLetterDetails(consumer)).map(({ subject, reason }) => ({ subject, reason }));
  }

  /** The same, with each letter's whole reason header (`<reason>: <error>`). */
  async deadLetterDetails(consumer: string): Promise<Array<{ subject: string; reason: string | undefined; detail: string }>> {
    const stored = await readStream(this.connection, STREAM_CATALOG.DEAD_LETTERS.name);
    return stored
      .filter((entry) => entry.subject.endsWith(`.${consumer}`))
      .map((entry) => {
        const detail = entry.headers[HEADERS.deadLetterReason] ?? '';
        return { subject: entry.headers[HEADERS.deadLetterSubject] ?? '', reason: detail ? detail.split(':')[0] : undefined, detail };
      });
  }

  /** Waits until the consumer has dead-lettered a message of this subject, and returns its letter. */
  async deadLettered(consumer: string, subject: string): Promise<{ subject: string; reason: string | undefined; detail: string }> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const letter = (await this.deadLetterDetails(consumer)).find((entry) => entry.subject === subject);
      if (letter) return letter;
      if (Date.now() > deadline) throw new Error(`nothing of ${subject} dead-lettered by ${consumer}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async close(): Promise<void> {
    for (const connection of this.daemons.values()) await connection.close();
    await this.connection.close();
    await this.database.end();
  }

  /** A connection as that enrolled daemon: its NATS user may use its own subjects only. */
  private async daemonConnection(daemonId: string): Promise<MessagingConnection> {
    const known = this.daemons.get(daemonId);
    if (known) return known;
    const connection = await connectTestMessaging({ name: `session-resume-test-${daemonId}`, namespace: this.namespace, identity: { kind: 'daemon', daemonId } });
    this.daemons.set(daemonId, connection);
    return connection;
  }
}
