import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from 'pg';
import { SERVICE_PUBLISHERS, createEvent, messageIds, subjects, type AgentMessage, type TaskMessageEvent } from '@switchyard/contracts';
import { catalogStreamDefinitions, provisionStreams, publish, type MessagingConnection } from '@switchyard/messaging';
import { deleteNamespaceStreams } from '@switchyard/messaging/testing';
import { attemptKey, createDataSource, runMigrations } from '@switchyard/persistence';
import { createJsonLogger, type JsonLogger } from '@switchyard/service-kit';
import { createTestDatabase, uniqueNamespace, type TestDatabase, connectTestMessaging } from '@switchyard/testing';
import type { DataSource } from 'typeorm';
import { startTimelineProjector, type RunningTimelineProjector, type TimelineProjectorOptions } from './projector/timeline.projector';

/** The daemon the test bed publishes timelines as, and which holds the attempts it publishes for. */
export const TIMELINE_TEST_DAEMON_ID = 'daemon-timeline-test';

/**
 * Makes `daemonId` the holder of a task's attempt, as the queue's claim writes it: a `task.claimed`
 * event in the record for the attempt, and the task's `agent_task_queue` row naming its latest
 * attempt and that attempt's daemon. The transcript's tests have no queue, so they seed its rows.
 */
export async function seedAttemptHolder(runner: { query(sql: string, parameters?: unknown[]): Promise<unknown> }, holder: { taskId: string; attempt: number; daemonId: string }): Promise<void> {
  const { taskId, attempt, daemonId } = holder;
  const claimed = createEvent({ type: 'task.claimed', payload: { taskId, attempt, daemonId, runtimeId: 'runtime-1', startBy: new Date(Date.now() + 60_000).toISOString() } });
  await runner.query(
    `insert into outbox_event (id, aggregate_id, version, type, subject, payload, occurred_at, published_at)
     values ($1, $2, $3, 'task.claimed', $4, $5, now(), now()) on conflict (aggregate_id, version) do nothing`,
    [claimed.eventId, taskId, attempt, subjects.forEvent(claimed, SERVICE_PUBLISHERS.queue), JSON.stringify(claimed)],
  );
  await runner.query(
    `insert into agent_task_queue (task_id, workspace_id, agent_id, runtime_id, source_kind, priority, status, attempt, max_attempts, enqueued_at, daemon_id, version)
     values ($1, 'default', 'agent-1', 'runtime-1', 'quick_create', 0, 'running', $2, $2, now(), $3, $2)
     on conflict (task_id) do update set attempt = excluded.attempt, daemon_id = excluded.daemon_id, max_attempts = excluded.max_attempts
       where agent_task_queue.attempt < excluded.attempt`,
    [taskId, attempt, daemonId],
  );
}

export type ProjectorTuning = Pick<TimelineProjectorOptions, 'batch' | 'consumer' | 'maxToolOutputChars' | 'statsIntervalMs' | 'unheldRetry'>;

/** Short ack wait so that redelivery after a crash happens within a test; short retries of unheld attempts. */
export const TEST_PROJECTOR_TUNING: ProjectorTuning = {
  batch: { maxMessages: 100, maxBytes: 1024 * 1024, maxWaitMs: 20 },
  consumer: { ackWaitMs: 1_500, maxDeliver: 10, maxAckPending: 1_000 },
  maxToolOutputChars: 4_096,
  statsIntervalMs: 60_000,
  unheldRetry: { initialDelayMs: 100, maximumDelayMs: 300 },
};

export type TaskMessageRecord = Record<string, unknown>;

/** Polls `probe` until it returns something other than undefined/false, or fails at the deadline. */
export async function waitFor<T>(probe: () => Promise<T | undefined | false>, options: { timeoutMs?: number; description: string }): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.description}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * One namespace, one migrated database and the catalog's streams for a test file; projectors
 * started on it with their own connection so a test can cut one off.
 */
export class TimelineTestBed {
  private readonly projectors = new Set<RunningTimelineProjector>();
  private readonly connections = new Set<MessagingConnection>();
  /** Attempts already given a holder, by `attemptKey`. */
  private readonly heldAttempts = new Set<string>();

  private constructor(
    readonly namespace: string,
    readonly database: TestDatabase,
    readonly connection: MessagingConnection,
    readonly dataSource: DataSource,
    readonly logger: JsonLogger,
  ) {}

  static async create(): Promise<TimelineTestBed> {
    const namespace = uniqueNamespace();
    const database = await createTestDatabase();
    await runMigrations({ url: database.url });
    const connection = await connectTestMessaging({ name: 'timeline-test', namespace });
    await provisionStreams(connection, catalogStreamDefinitions());
    const dataSource = createDataSource({ url: database.url, applicationName: 'timeline-test' });
    await dataSource.initialize();
    return new TimelineTestBed(namespace, database, connection, dataSource, createJsonLogger({ service: 'transcript-test', level: 'warn' }));
  }

  /** A projector on a connection of its own (returned, so a test can close it to simulate a crash). */
  async startProjector(tuning: ProjectorTuning = TEST_PROJECTOR_TUNING): Promise<{ projector: RunningTimelineProjector; connection: MessagingConnection }> {
    const connection = await this.newConnection('timeline-projector');
    const projector = await startTimelineProjector({ connection, dataSource: this.dataSource, logger: this.logger, ...tuning });
    this.projectors.add(projector);
    return { projector, connection };
  }

  async stopProjector(projector: RunningTimelineProjector): Promise<void> {
    this.projectors.delete(projector);
    await projector.stop();
  }

  async newConnection(name: string): Promise<MessagingConnection> {
    const connection = await connectTestMessaging({ name, namespace: this.namespace });
    this.connections.add(connection);
    return connection;
  }

  /**
   * Publishes like the daemon: on `task.message.<taskId>.<daemonId>`, `Nats-Msg-Id`
   * `<daemonId>:<taskId>:<seq>`, the test daemon holding the attempt (seeded the first time).
   * With another `publisher`, a forgery: published as that daemon, and no holder seeded.
   */
  async publishMessage(taskId: string, seq: number, message: AgentMessage, options: { attempt?: number; messageId?: string; publisher?: string } = {}): Promise<TaskMessageEvent> {
    const envelope = createEvent({ type: 'task.message', payload: { taskId, seq, attempt: options.attempt ?? 1, message } });
    await this.publishEnvelope(envelope, options);
    return envelope;
  }

  async publishEnvelope(envelope: TaskMessageEvent, options: { messageId?: string; publisher?: string } = {}): Promise<void> {
    const { messageId, publisher = TIMELINE_TEST_DAEMON_ID } = options;
    const { taskId, seq, attempt } = envelope.payload;
    if (publisher === TIMELINE_TEST_DAEMON_ID) await this.holdAttempt(taskId, attempt);
    await publish(this.connection, { subject: subjects.forEvent(envelope, publisher), data: envelope, messageId: messageId ?? messageIds.taskMessage({ publisher, taskId, seq }) });
  }

  /** Makes `daemonId` (the test daemon by default) the holder of the attempt, once per attempt. */
  async holdAttempt(taskId: string, attempt: number, daemonId = TIMELINE_TEST_DAEMON_ID): Promise<void> {
    const key = attemptKey({ taskId, attempt });
    if (this.heldAttempts.has(key)) return;
    await seedAttemptHolder(this.dataSource, { taskId, attempt, daemonId });
    this.heldAttempts.add(key);
  }

  /** Raw bytes on a task's timeline subject (malformed events), its first attempt held by the test daemon. */
  async publishRaw(taskId: string, data: Uint8Array, messageId: string): Promise<void> {
    await this.holdAttempt(taskId, 1);
    await publish(this.connection, { subject: subjects.taskEvent({ type: 'task.message', taskId, publisher: TIMELINE_TEST_DAEMON_ID }), data, messageId });
  }

  async query<Row extends Record<string, unknown>>(sql: string, parameters: unknown[] = []): Promise<Row[]> {
    return this.dataSource.query<Row[]>(sql, parameters);
  }

  async rows(taskId: string): Promise<TaskMessageRecord[]> {
    return this.query('select * from task_message where task_id = $1 order by seq', [taskId]);
  }

  /** The projector has nothing left to deliver or to see acknowledged. */
  async caughtUp(projector: RunningTimelineProjector, timeoutMs = 20_000): Promise<void> {
    await waitFor(async () => (await projector.pendingMessages()) === 0, { timeoutMs, description: 'the projector to catch up' });
  }

  /** A separate database session, for holding locks against the projector. */
  async session(): Promise<Client> {
    const client = new Client({ connectionString: this.database.url });
    await client.connect();
    return client;
  }

  async close(): Promise<void> {
    for (const projector of this.projectors) await projector.stop().catch(() => undefined);
    for (const connection of this.connections) await connection.close();
    await this.dataSource.destroy();
    await deleteNamespaceStreams(this.connection);
    await this.connection.close();
    await this.database.drop();
  }
}

export interface TranscriptProcess {
  readonly pid: number;
  /** Resolves with the exit signal or code once the process is gone. */
  readonly exited: Promise<string>;
  kill(signal: NodeJS.Signals): Promise<string>;
}

/**
 * The built transcript service (`dist/`, see tools/build) as its own process, so a test can
 * SIGKILL it like a crashed pod; resolves once it listens.
 */
export function startTranscriptProcess(env: NodeJS.ProcessEnv): Promise<TranscriptProcess> {
  const entry = path.join(workspaceRoot(), 'dist/services/transcript/src/main.js');
  const child = spawn(process.execPath, [entry], { env: { ...process.env, LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? String(code))));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the transcript service did not start in time'));
    }, 30_000);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`the transcript service exited (${how}) before listening`));
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.includes('"service_listening"')) return;
      clearTimeout(timer);
      resolve({
        pid: child.pid!,
        exited,
        kill: (signal) => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    });
  });
}

/** Compiles the repository to dist/ (about a second) so child processes run the current code. */
export function buildDist(): void {
  execFileSync(process.execPath, [path.join(workspaceRoot(), 'tools/build/build.mjs')], { stdio: 'ignore' });
}

function workspaceRoot(): string {
  return path.resolve(__dirname, '../../..');
}
