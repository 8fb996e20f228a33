import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
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
  startServiceChild,
  testNatsUrl,
  uniqueNamespace,
  type MockModelServer,
  type ServiceChild,
  type TestDatabase,
} from '@switchyard/testing';

const workspaceRoot = path.resolve(__dirname, '../../..');
const DAEMON_ID = 'daemon-e2e';

/**
 * End to end, every part real: the queue and the daemon as built processes, real NATS and
 * Postgres, the real Claude Code, Codex and Gemini CLIs against the mock model. A task enqueued over NATS is claimed
 * on the queue's nudge, runs, and its timeline lands on JetStream in seq order.
 */
describe('enqueue → queue → daemon → real agent CLIs → timeline on JetStream', () => {
  let database: TestDatabase;
  let model: MockModelServer;
  let queue: ServiceChild;
  let daemon: ServiceChild;
  let connection: MessagingConnection;
  let home: string;
  const namespace = uniqueNamespace();

  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(workspaceRoot, 'tools/build/build.mjs')], { stdio: 'ignore' });
    database = await createTestDatabase();
    await runMigrations({ url: database.url });
    model = await startMockModelServer({});
    home = await mkdtemp(path.join(tmpdir(), 'switchyard-e2e-home-'));
    const common = {
      PATH: process.env['PATH'] ?? '',
      SWITCHYARD_STREAM_MAX_BYTES_CAP: process.env['SWITCHYARD_STREAM_MAX_BYTES_CAP'] ?? '',
      NATS_URL: testNatsUrl(), SWITCHYARD_NAMESPACE: namespace, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' };
    queue = await startServiceChild({ entry: 'services/queue/src/main.js', env: { ...common, DATABASE_URL: database.url, QUEUE_TASK_TOKEN_SECRET: 'e2e-secret-e2e-secret-e2e-secret-e2e' }, timeoutMs: 60_000 });
    daemon = await startServiceChild({
      entry: 'services/daemon/src/main.js',
      env: { ...common, DAEMON_ID, SWITCHYARD_HOME: home, DAEMON_PATH: `${path.join(workspaceRoot, 'tests/agent-clis/node_modules/.bin')}${path.delimiter}${process.env['PATH'] ?? ''}` },
      timeoutMs: 60_000,
    });
    connection = await connectMessaging({ url: testNatsUrl(), name: 'e2e-observer', namespace });
  }, 180_000);

  afterAll(async () => {
    await daemon?.stop();
    await queue?.stop();
    if (connection) {
      await deleteNamespaceStreams(connection);
      await connection.close();
    }
    await model?.stop();
    await database?.drop();
    await rm(home, { recursive: true, force: true });
  });

  async function taskStatus(taskId: string): Promise<string | undefined> {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      const result = await client.query<{ status: string }>('select status from agent_task_queue where task_id = $1', [taskId]);
      return result.rows[0]?.status;
    } finally {
      await client.end();
    }
  }

  const RUNTIMES = [
    { identity: 'claude-code', model: null, env: (url: string) => ({ ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'sk-mock-not-a-secret' }) },
    { identity: 'codex', model: 'mock-model', env: (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }) },
    { identity: 'gemini-cli', model: null, env: (url: string) => ({ GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'mock-not-a-secret' }) },
  ] as const;

  it.each(RUNTIMES)('runs a task on the real $identity and streams its timeline in seq order, then completes', async ({ identity, model: agentModel, env }) => {
    const target = path.join(home, `proof-of-${identity}.txt`);
    const payload: CommandPayloadOf<'task.enqueue'> = {
      workspaceId: 'workspace-e2e',
      agentId: `agent-${identity}`,
      agent: sampleAgentSnapshot({ model: agentModel, env: env(model.url) }),
      runtimeId: `${DAEMON_ID}-${identity}`,
      source: { kind: 'quick_create' },
      priority: 0,
      prompt: `Write the proof [[scenario:tool-write-file ${target} done by ${identity}]]`,
      forceFreshSession: false,
      maxAttempts: null,
      fireAt: null,
      expiresAt: null,
    };
    const command = createCommand({ command: 'task.enqueue', payload });
    const reply = await requestReply<unknown, { taskId: string }>(connection, { subject: subjects.command('task.enqueue'), data: command, requestId: command.requestId, timeoutMs: 30_000 });
    if (!reply.ok) throw new Error(`enqueue refused: ${reply.error.message}`);
    const { taskId } = reply.result;

    const deadline = Date.now() + 150_000;
    let status = await taskStatus(taskId);
    while (status !== 'completed' && status !== 'failed' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = await taskStatus(taskId);
    }
    expect(status).toBe('completed');
    expect(await readFile(target, 'utf8')).toBe(`done by ${identity}`);

    const timeline = (await readStream(connection, STREAM_CATALOG.TASK_EVENTS.name))
      .filter((message) => message.subject === subjects.taskEvent('task.message', taskId))
      .map((message) => (JSON.parse(message.text) as { payload: { seq: number; message: AgentMessage } }).payload);
    expect(timeline.map((entry) => entry.seq)).toEqual(timeline.map((_, index) => index));
    const types = timeline.map((entry) => entry.message.type);
    // Every CLI shows the tool call, its result and a final text, in that order.
    const toolUse = types.indexOf('tool-use');
    expect(toolUse).toBeGreaterThanOrEqual(0);
    expect(types.indexOf('tool-result', toolUse)).toBeGreaterThan(toolUse);
    expect(types.lastIndexOf('text')).toBeGreaterThan(types.indexOf('tool-result', toolUse));
    // The CLI's session was pinned for the next task to resume.
    const pinned = (await readStream(connection, STREAM_CATALOG.SESSION_EVENTS.name))
      .map((message) => JSON.parse(message.text) as { type: string; payload: { taskId: string; workDir: string } })
      .filter((event) => event.type === 'session.pinned' && event.payload.taskId === taskId);
    expect(pinned).toHaveLength(1);
    expect(pinned[0]!.payload.workDir).toContain(path.join(home, 'workspaces'));
  }, 180_000);
});
