import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { STREAM_CATALOG, bundleIdOfSecretRef, createEvent, isSecretRef, runtimeIdOf, subjects, type RepositorySnapshot, type SwitchyardEvent } from '@switchyard/contracts';
import { publish } from '@switchyard/messaging';
import { readStream } from '@switchyard/messaging/testing';
import { startSystemProcesses, type SystemProcesses } from '@switchyard/testing';
import { Client } from 'pg';
import { gatewayCaller, until, type GatewayResponse } from './gateway-e2e.spec-helper';

const TOKEN = 'sy_credentials-e2e-token-000000000000001';
const DAEMON_ID = 'daemon-credentials-e2e';
const SECRET_VALUE = 'ghp_RepositoryCredentialsE2eSecret0123456789';

interface EnqueuedPayload {
  agent: { repositories: RepositorySnapshot[] };
}

/**
 * Issue 18, the gateway's side with every part real: the queue and gateway as built processes on
 * real NATS and Postgres (no daemon: the tasks stay queued). A repository credential's secret, set
 * once over REST, reaches the queue in the task's agent snapshot and is then nowhere in clear: not
 * in a REST answer, not on the bus, not in any row of the database, not in the services' logs.
 */
describe('repository credentials from the REST API through the real queue, never in clear', () => {
  let system: SystemProcesses;
  let database: Client;
  let logDirectory = '';
  let gatewayUrl = '';
  const call = gatewayCaller(() => gatewayUrl, TOKEN);
  const api = async (method: string, route: string, body?: unknown, expected?: number): Promise<GatewayResponse> => {
    const response = await call(method, route, { body });
    if (expected !== undefined) expect({ route, status: response.status, body: response.body }).toEqual({ route, status: expected, body: response.body });
    return response;
  };

  const taskEvents = async (taskId: string): Promise<Array<{ subject: string; text: string }>> =>
    (await readStream(system.connection, STREAM_CATALOG.TASK_EVENTS.name)).filter((message) => message.subject.includes(taskId));
  const enqueuedOnTheBus = (taskId: string): Promise<EnqueuedPayload> =>
    until(async () => {
      const message = (await taskEvents(taskId)).find((candidate) => candidate.subject.startsWith('task.enqueued.'));
      return message ? (JSON.parse(message.text) as { payload: EnqueuedPayload }).payload : undefined;
    }, `task.enqueued of ${taskId} is on the bus`);

  beforeAll(async () => {
    logDirectory = await mkdtemp(path.join(tmpdir(), 'switchyard-credentials-e2e-logs-'));
    // Every child's log lines into files, to search them for the secret.
    const before = process.env['SWITCHYARD_CHILD_LOG_DIR'];
    process.env['SWITCHYARD_CHILD_LOG_DIR'] = logDirectory;
    try {
      system = await startSystemProcesses({ services: ['queue', 'gateway'], gatewayToken: TOKEN });
    } finally {
      if (before === undefined) delete process.env['SWITCHYARD_CHILD_LOG_DIR'];
      else process.env['SWITCHYARD_CHILD_LOG_DIR'] = before;
    }
    gatewayUrl = system.gatewayUrl;
    database = new Client({ connectionString: system.databaseUrl });
    await database.connect();
  }, 240_000);

  afterAll(async () => {
    await database?.end();
    await system?.stop();
    if (logDirectory) await rm(logDirectory, { recursive: true, force: true });
  });

  it('seals the secret out of the snapshot: the REST answers, the bus, every table and the logs hold no clear value', async () => {
    // A runtime as a daemon registers it: the agent needs one.
    const runtimeId = runtimeIdOf(DAEMON_ID, 'claude-code');
    const registered: SwitchyardEvent = createEvent({
      type: 'runtime.registered',
      payload: { daemonId: DAEMON_ID, workspaceId: 'default', runtimeId, identity: 'claude-code', provider: 'anthropic', version: '2.1.197', protocolFamily: 'claude-stream-json', commandName: 'claude', profileId: null, capacity: 4, models: [] },
    });
    await publish(system.connection, { subject: subjects.forEvent(registered, DAEMON_ID), data: registered, messageId: registered.eventId });
    await until(async () => ((await api('GET', `/api/runtimes/${runtimeId}`)).status === 200 ? true : undefined), 'the runtime is listed', 60_000);

    const agentId = (await api('POST', '/api/agents', { name: 'Repository worker', runtimeId }, 201)).body.id as string;
    const secret = await api('POST', '/api/secrets', { name: 'github-token', value: SECRET_VALUE, description: 'push access' }, 201);
    const projectId = (await api('POST', '/api/projects', { name: 'Storefront' }, 201)).body.id as string;
    await api('POST', `/api/projects/${projectId}/repositories`, { name: 'web', url: 'https://git.example.com/team/web.git', credential: { username: 'x-access-token', secretName: 'github-token' } }, 201);
    await api('POST', `/api/projects/${projectId}/repositories`, { name: 'api', url: 'file:///srv/git/api.git' }, 201);
    // A token pasted into the URL is refused without being echoed, stored or logged (checked below).
    const pasted = await api('POST', `/api/projects/${projectId}/repositories`, { name: 'pasted', url: `https://bot:${SECRET_VALUE}@git.example.com/team/web.git` }, 400);
    expect(pasted.body.error).toMatchObject({ code: 'invalid_repository', details: { problems: [{ field: 'url', message: expect.stringContaining('password') }] } });

    const issue = await api('POST', '/api/issues', { title: 'Fix the cart', project: 'Storefront', assigneeAgentId: agentId }, 201);
    const issueTaskId = issue.body.tasks[0].taskId as string;
    const quickTaskId = (await api('POST', '/api/tasks', { agentId, prompt: 'Quick look at the cart' }, 201)).body.taskId as string;

    // The snapshot on the bus: the repositories as resolved, each credential secret a reference.
    const issueRepositories = (await enqueuedOnTheBus(issueTaskId)).agent.repositories;
    expect(issueRepositories.map((repository) => [repository.name, repository.checkoutAtStart])).toEqual([['api', true], ['web', true]]);
    const web = issueRepositories.find((repository) => repository.name === 'web')!;
    expect(web.credential).toEqual({ kind: 'https_token', username: 'x-access-token', secret: expect.any(String) });
    expect(isSecretRef(web.credential!.secret)).toBe(true);
    const quickRepositories = (await enqueuedOnTheBus(quickTaskId)).agent.repositories;
    expect(quickRepositories.map((repository) => [repository.name, repository.checkoutAtStart])).toEqual([['api', false], ['web', false]]);

    // Nowhere in clear: the API's answers, every message of the tasks on the bus, every row of every table, every log line.
    const answers = [
      await api('GET', `/api/tasks/${issueTaskId}`, undefined, 200),
      await api('GET', `/api/tasks/${quickTaskId}`, undefined, 200),
      await api('GET', `/api/issues/${issue.body.id as string}`, undefined, 200),
      await api('GET', `/api/secrets/${secret.body.id as string}`, undefined, 200),
      await api('GET', `/api/projects/${projectId}`, undefined, 200),
      await api('GET', '/api/tasks', undefined, 200),
      secret,
      pasted,
    ];
    expect(answers.filter((answer) => JSON.stringify(answer.body).includes(SECRET_VALUE))).toEqual([]);

    const busMessages = [...(await taskEvents(issueTaskId)), ...(await taskEvents(quickTaskId))];
    expect(busMessages.length).toBeGreaterThanOrEqual(2);
    expect(busMessages.filter((message) => message.text.includes(SECRET_VALUE)).map((message) => message.subject)).toEqual([]);

    const tables = (await database.query<{ table_name: string }>("select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'")).rows.map((row) => row.table_name);
    expect(tables).toEqual(expect.arrayContaining(['agent_task_queue', 'task_secret_bundle', 'outbox_event', 'workspace_secret', 'project_repository']));
    const tablesHolding = async (text: string): Promise<string[]> => {
      const holding: string[] = [];
      for (const table of tables) {
        const { rows } = await database.query<{ found: boolean }>(`select exists (select 1 from "${table}" t where strpos(t::text, $1) > 0) as found`, [text]);
        if (rows[0]?.found) holding.push(table);
      }
      return holding;
    };
    // The search finds what is stored in clear (the credential's user name), so an empty answer means something.
    expect(await tablesHolding('x-access-token')).toEqual(expect.arrayContaining(['project_repository', 'outbox_event']));
    expect(await tablesHolding(SECRET_VALUE)).toEqual([]);
    // The queue did keep it, sealed: the bundle the reference names.
    expect((await database.query('select 1 from task_secret_bundle where bundle_id = $1', [bundleIdOfSecretRef(web.credential!.secret)])).rowCount).toBe(1);

    const logFiles = await readdir(logDirectory);
    expect(logFiles.length).toBeGreaterThanOrEqual(2);
    const logs = await Promise.all(logFiles.map(async (file) => ({ file, text: await readFile(path.join(logDirectory, file), 'utf8') })));
    expect(logs.filter((log) => log.text.includes('service_listening')).length).toBe(logFiles.length);
    expect(logs.filter((log) => log.text.includes(SECRET_VALUE)).map((log) => log.file)).toEqual([]);
  });
});
