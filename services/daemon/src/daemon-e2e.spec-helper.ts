import { Client } from 'pg';
import { SERVICE_PUBLISHERS, STREAM_CATALOG, createCommand, subjects, type AgentMessage, type CommandPayloadOf, type TaskSource } from '@switchyard/contracts';
import { requestReply, type MessagingConnection } from '@switchyard/messaging';
import { readStream } from '@switchyard/messaging/testing';
import { waitForIndexedSession, sampleAgentSnapshot, startSystemProcesses, type MockModelServer, type ServiceChild } from '@switchyard/testing';

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
  /** The services' database, e.g. to hold a lock that stalls a command. */
  readonly databaseUrl: string;
  startDaemon(options: { readonly daemonId: string; readonly env?: Readonly<Record<string, string>> }): Promise<ServiceChild>;
  enqueue(overrides: Partial<CommandPayloadOf<'task.enqueue'>> & Pick<CommandPayloadOf<'task.enqueue'>, 'runtimeId' | 'prompt'>): Promise<string>;
  tasks(where: string, parameters: unknown[]): Promise<TaskRow[]>;
  waitForTask(taskId: string, statuses: readonly string[], timeoutMs?: number): Promise<TaskRow>;
  timeline(taskId: string): Promise<TimelineEntry[]>;
  started(taskId: string): Promise<TaskStartedFacts[]>;
  /** The `task.failed` payloads of a task (reason, message, detail), to say why a run failed. */
  failures(taskId: string): Promise<Array<Record<string, unknown>>>;
  /** The session index is projected asynchronously: asks as the daemon does until it offers `sessionId`. */
  untilOffered(request: { readonly agentId: string; readonly runtimeId: string; readonly source: TaskSource; readonly sessionId: string }): Promise<void>;
  /** `session.pinned` / `session.retired` events, as published. */
  sessionEvents(): Promise<Array<{ readonly type: string; readonly payload: Record<string, unknown> }>>;
  stop(): Promise<void>;
}

export const claudeOnMock = (model: MockModelServer): Record<string, string> => ({ ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-mock-not-a-secret' });

/** Builds dist/ and starts everything but the daemons; `stop` undoes it all. */
const E2E_WORKSPACE_ID = 'workspace-e2e';

export async function startDaemonE2eStack(): Promise<DaemonE2eStack> {
  // Each daemon asks session-resume which session a task continues before its run (design §7).
  const system = await startSystemProcesses({ services: ['queue', 'session-resume'] });
  const { model, home, connection } = system;
  const database = { url: system.databaseUrl };

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
    databaseUrl: database.url,
    // The daemon's workspace is that of the tasks enqueued here: it refuses any other's.
    startDaemon: (options) => system.startDaemon({ ...options, env: { DAEMON_WORKSPACE_ID: E2E_WORKSPACE_ID, ...options.env } }),
    async enqueue(overrides) {
      const payload: CommandPayloadOf<'task.enqueue'> = {
        workspaceId: E2E_WORKSPACE_ID,
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
        // From whichever daemon ran it: the publisher is the subject's last token.
        .filter((message) => message.subject.startsWith(`task.message.${taskId}.`))
        .map((message) => (JSON.parse(message.text) as { payload: TimelineEntry }).payload);
    },
    async started(taskId) {
      return (await readStream(connection, STREAM_CATALOG.TASK_EVENTS.name))
        .filter((message) => message.subject === subjects.taskEvent({ type: 'task.started', taskId, publisher: SERVICE_PUBLISHERS.queue }))
        .map((message) => (JSON.parse(message.text) as { payload: TaskStartedFacts }).payload)
        .map(({ attempt, workDir, resumedSessionId }) => ({ attempt, workDir, resumedSessionId }));
    },
    async untilOffered({ sessionId }) {
      await waitForIndexedSession({ databaseUrl: database.url, sessionId });
    },
    async failures(taskId) {
      return (await readStream(connection, STREAM_CATALOG.TASK_EVENTS.name))
        .filter((message) => message.subject === subjects.taskEvent({ type: 'task.failed', taskId, publisher: SERVICE_PUBLISHERS.queue }))
        .map((message) => (JSON.parse(message.text) as { payload: Record<string, unknown> }).payload);
    },
    async sessionEvents() {
      return (await readStream(connection, STREAM_CATALOG.SESSION_EVENTS.name)).map((message) => JSON.parse(message.text) as { type: string; payload: Record<string, unknown> });
    },
    stop: () => system.stop(),
  };
}
