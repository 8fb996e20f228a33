import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { STREAM_CATALOG, createCommand, subjects, type AgentMessage, type CommandPayloadOf } from '@switchyard/contracts';
import { connectMessaging, deleteNamespaceStreams, readStream, requestReply, type MessagingConnection } from '@switchyard/messaging';
import { runMigrations } from '@switchyard/persistence';
import {
  createTestDatabase,
  sampleAgentSnapshot,
  startMockModelServer,
  serviceChildEnvironment,
  startServiceChild,
  testNatsUrl,
  uniqueNamespace,
  type MockModelServer,
  type ServiceChild,
  type TestDatabase,
} from '@switchyard/testing';

const workspaceRoot = path.resolve(__dirname, '../../..');
export const AGENT_CLIS_BIN = path.join(workspaceRoot, 'tests/agent-clis/node_modules/.bin');

export interface TaskRow {
  readonly task_id: string;
  readonly status: string;
  readonly failure_reason: string | null;
  readonly retry_of_task_id: string | null;
}

/** The `task.started` events of a task, attempt by attempt: where it ran and which session it resumed. */
export interface TaskStartedFacts {
  readonly attempt: number;
  readonly workDir: string;
  readonly resumedSessionId: string | null;
}

export interface TimelineEntry {
  readonly seq: number;
  readonly message: AgentMessage;
}

/** Real NATS, Postgres, mock model and the built queue and session-resume services; daemons are started per test. */
export interface DaemonE2eStack {
  readonly model: MockModelServer;
  readonly home: string;
  readonly connection: MessagingConnection;
  startDaemon(options: { readonly daemonId: string; readonly env?: NodeJS.ProcessEnv }): Promise<ServiceChild>;
  enqueue(overrides: Partial<CommandPayloadOf<'task.enqueue'>> & Pick<CommandPayloadOf<'task.enqueue'>, 'runtimeId' | 'prompt'>): Promise<string>;
  tasks(where: string, parameters: unknown[]): Promise<TaskRow[]>;
  waitForTask(taskId: string, statuses: readonly string[], timeoutMs?: number): Promise<TaskRow>;
  timeline(taskId: string): Promise<TimelineEntry[]>;
  started(taskId: string): Promise<TaskStartedFacts[]>;
  /** `session.pinned` / `session.retired` events, as published. */
  sessionEvents(): Promise<Array<{ readonly type: string; readonly payload: Record<string, unknown> }>>;
  stop(): Promise<void>;
}

export const claudeOnMock = (model: MockModelServer): Record<string, string> => ({ ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-mock-not-a-secret' });

/** Builds dist/ and starts everything but the daemons; `stop` undoes it all. */
export async function startDaemonE2eStack(): Promise<DaemonE2eStack> {
  execFileSync(process.execPath, [path.join(workspaceRoot, 'tools/build/build.mjs')], { stdio: 'ignore' });
  const namespace = uniqueNamespace();
  const database: TestDatabase = await createTestDatabase();
  await runMigrations({ url: database.url });
  const model = await startMockModelServer({});
  const home = await mkdtemp(path.join(tmpdir(), 'switchyard-e2e-home-'));
  const common = serviceChildEnvironment({ natsUrl: testNatsUrl(), namespace });

  const queue = await startServiceChild({ entry: 'services/queue/src/main.js', env: { ...common, DATABASE_URL: database.url, QUEUE_TASK_TOKEN_SECRET: 'e2e-secret-e2e-secret-e2e-secret-e2e' }, timeoutMs: 60_000 });
  // The claim asks it which session each task continues (design §7).
  const sessionResume = await startServiceChild({ entry: 'services/session-resume/src/main.js', env: { ...common, DATABASE_URL: database.url }, timeoutMs: 60_000 });
  const connection = await connectMessaging({ url: testNatsUrl(), name: 'e2e-observer', namespace });
  const daemons: ServiceChild[] = [];

  const tasks = async (where: string, parameters: unknown[]): Promise<TaskRow[]> => {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query<TaskRow>(`select task_id, status, failure_reason, retry_of_task_id from agent_task_queue where ${where}`, parameters)).rows;
    } finally {
      await client.end();
    }
  };

  return {
    model,
    home,
    connection,
    async startDaemon({ daemonId, env }) {
      const daemon = await startServiceChild({
        entry: 'services/daemon/src/main.js',
        env: { ...common, DAEMON_ID: daemonId, SWITCHYARD_HOME: home, DAEMON_PATH: `${AGENT_CLIS_BIN}${path.delimiter}${process.env['PATH'] ?? ''}`, ...env },
        timeoutMs: 60_000,
      });
      daemons.push(daemon);
      return daemon;
    },
    async enqueue(overrides) {
      const payload: CommandPayloadOf<'task.enqueue'> = {
        workspaceId: 'workspace-e2e',
        agentId: `agent-${overrides.runtimeId}`,
        agent: sampleAgentSnapshot({ model: null, env: claudeOnMock(model) }),
        source: { kind: 'quick_create' },
        priority: 0,
        forceFreshSession: false,
        maxAttempts: null,
        fireAt: null,
        expiresAt: null,
        ...overrides,
      };
      const command = createCommand({ command: 'task.enqueue', payload });
      const reply = await requestReply<unknown, { taskId: string }>(connection, { subject: subjects.command('task.enqueue'), data: command, requestId: command.requestId, timeoutMs: 30_000 });
      if (!reply.ok) throw new Error(`enqueue refused: ${reply.error.message}`);
      return reply.result.taskId;
    },
    tasks,
    async waitForTask(taskId, statuses, timeoutMs = 150_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const [row] = await tasks('task_id = $1', [taskId]);
        if (row && statuses.includes(row.status)) return row;
        if (Date.now() > deadline) throw new Error(`task ${taskId} is ${row?.status ?? 'missing'}, never one of ${statuses.join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async timeline(taskId) {
      return (await readStream(connection, STREAM_CATALOG.TASK_EVENTS.name))
        .filter((message) => message.subject === subjects.taskEvent('task.message', taskId))
        .map((message) => (JSON.parse(message.text) as { payload: TimelineEntry }).payload);
    },
    async started(taskId) {
      return (await readStream(connection, STREAM_CATALOG.TASK_EVENTS.name))
        .filter((message) => message.subject === subjects.taskEvent('task.started', taskId))
        .map((message) => (JSON.parse(message.text) as { payload: TaskStartedFacts }).payload)
        .map(({ attempt, workDir, resumedSessionId }) => ({ attempt, workDir, resumedSessionId }));
    },
    async sessionEvents() {
      return (await readStream(connection, STREAM_CATALOG.SESSION_EVENTS.name)).map((message) => JSON.parse(message.text) as { type: string; payload: Record<string, unknown> });
    },
    async stop() {
      await Promise.all(daemons.map((daemon) => daemon.stop()));
      await sessionResume.stop();
      await queue.stop();
      await deleteNamespaceStreams(connection);
      await connection.close();
      await model.stop();
      await database.drop();
      await rm(home, { recursive: true, force: true });
    },
  };
}
