import { generateSecretKey, parseSecretKeys, secretKeyring } from '@switchyard/persistence';
import { startServiceForTest } from '@switchyard/testing';
import { gatewayApp } from '../../gateway.app';
import { FakeQueue } from '../tasks/fake-queue.spec-helper';
import { GatewayTestKit, pluck, type TestWorkspace } from '../../gateway-test.spec-helper';

describe('agents API (real NATS + Postgres)', () => {
  let kit: GatewayTestKit;
  let alpha: TestWorkspace;
  let beta: TestWorkspace;
  let alphaRuntime: string;
  let betaRuntime: string;

  // Archiving an agent cancels its unfinished tasks: the queue's side is played here.
  let queue: FakeQueue;

  beforeAll(async () => {
    kit = await GatewayTestKit.start();
    queue = new FakeQueue(kit);
    queue.start();
    alpha = await kit.workspace('Alpha');
    beta = await kit.workspace('Beta');
    alphaRuntime = (await kit.registerRuntime(alpha.id)).runtimeId;
    betaRuntime = (await kit.registerRuntime(beta.id)).runtimeId;
  });
  afterAll(async () => {
    await queue?.stop();
    await kit?.stop();
  });

  const openedEnv = (env: Record<string, string> | undefined, purpose = 'agent env value'): Record<string, string> =>
    Object.fromEntries(Object.entries(env ?? {}).map(([key, value]) => [key, kit.secretKeyring.open(purpose, value)]));

  const fullAgent = () => ({
    name: 'Reviewer',
    instructions: 'Review the change.',
    runtimeId: alphaRuntime,
    model: 'claude-sonnet-4-5',
    thinkingLevel: 'high',
    env: { GITHUB_TOKEN: 'ghp_secret', LOG_LEVEL: 'debug' },
    extraArgs: ['--max-turns', '20'],
    mcpServers: {
      github: { command: 'github-mcp', args: ['stdio'], env: { GITHUB_PAT: 'pat_secret' } },
      docs: { url: 'https://docs.example.com/mcp', headers: { authorization: 'Bearer docs_secret' } },
    },
    skills: ['code-review', 'testing'],
    maxConcurrentTasks: 3,
  });

  it('creates an agent and never returns its secrets in clear', async () => {
    const created = await kit.as(alpha.token).post('/api/agents', fullAgent());
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      ...fullAgent(),
      env: { GITHUB_TOKEN: '********', LOG_LEVEL: '********' },
      mcpServers: {
        github: { command: 'github-mcp', args: ['stdio'], env: { GITHUB_PAT: '********' } },
        docs: { url: 'https://docs.example.com/mcp', headers: { authorization: '********' } },
      },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      archivedAt: null,
    });
    const id = created.body.id as string;
    for (const response of [await kit.as(alpha.token).get(`/api/agents/${id}`), await kit.as(alpha.token).get('/api/agents')]) {
      expect(response.status).toBe(200);
      expect(JSON.stringify(response.body)).not.toMatch(/ghp_secret|pat_secret|docs_secret|debug/);
    }
    // Stored sealed, each value on its own (GATEWAY_SECRET_KEYS): the table gives no value away.
    const [stored] = await kit.query<{ env: Record<string, string>; mcp_servers: unknown }>('select env, mcp_servers from agent where id = $1', [id]);
    expect(JSON.stringify(stored)).not.toMatch(/ghp_secret|pat_secret|docs_secret|debug/);
    expect(openedEnv(stored?.env)).toEqual(fullAgent().env);
  });

  it('applies defaults to a minimal agent', async () => {
    const created = await kit.as(alpha.token).post('/api/agents', { name: 'Minimal', runtimeId: alphaRuntime });
    expect(created.body).toMatchObject({
      name: 'Minimal',
      instructions: '',
      model: null,
      thinkingLevel: null,
      env: {},
      extraArgs: [],
      mcpServers: {},
      skills: [],
      maxConcurrentTasks: 1,
    });
  });

  it('changes an agent; masked values sent back keep what is stored', async () => {
    const id = (await kit.as(alpha.token).post('/api/agents', { ...fullAgent(), name: 'Editable' })).body.id as string;
    const read = (await kit.as(alpha.token).get(`/api/agents/${id}`)).body;
    const changed = await kit.as(alpha.token).patch(`/api/agents/${id}`, {
      instructions: 'Review harder.',
      env: { ...read.env, LOG_LEVEL: 'info', NEW_VAR: 'new' },
      mcpServers: { github: read.mcpServers.github },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ instructions: 'Review harder.', env: { GITHUB_TOKEN: '********', LOG_LEVEL: '********', NEW_VAR: '********' } });
    const [stored] = await kit.query<{ env: Record<string, string>; mcp_servers: Record<string, unknown> }>('select env, mcp_servers from agent where id = $1', [id]);
    expect(openedEnv(stored?.env)).toEqual({ GITHUB_TOKEN: 'ghp_secret', LOG_LEVEL: 'info', NEW_VAR: 'new' });
    const github = (stored?.mcp_servers as { github: { env: Record<string, string> } }).github;
    expect({ ...github, env: openedEnv(github.env, 'agent MCP secret value') }).toEqual({ command: 'github-mcp', args: ['stdio'], env: { GITHUB_PAT: 'pat_secret' } });

    const masked = await kit.as(alpha.token).patch(`/api/agents/${id}`, { env: { UNKNOWN: '********' } });
    expect(masked.status).toBe(400);
    expect((await kit.query<{ env: Record<string, string> }>('select env from agent where id = $1', [id]))[0]?.env).toEqual(stored?.env);
  });

  it('binds agents only to runtimes of their own workspace', async () => {
    const before = await kit.count('agent');
    for (const runtimeId of [betaRuntime, 'runtime-that-never-registered']) {
      const response = await kit.as(alpha.token).post('/api/agents', { name: `Bound to ${runtimeId}`, runtimeId });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('unknown_runtime');
    }
    const id = (await kit.as(alpha.token).post('/api/agents', { name: 'Rebind', runtimeId: alphaRuntime })).body.id as string;
    expect((await kit.as(alpha.token).patch(`/api/agents/${id}`, { runtimeId: betaRuntime })).body.error.code).toBe('unknown_runtime');
    expect((await kit.as(alpha.token).get(`/api/agents/${id}`)).body.runtimeId).toBe(alphaRuntime);
    expect(await kit.count('agent')).toBe(before + 1);
  });

  it('refuses bad input with 400 validation_failed and writes nothing', async () => {
    const before = await kit.count('agent');
    const bad = [
      { runtimeId: alphaRuntime },
      { name: 'Bad env', runtimeId: alphaRuntime, env: { 'NOT-POSIX': 'x' } },
      { name: 'Bad env value', runtimeId: alphaRuntime, env: { OK: 42 } },
      { name: 'Bad skills', runtimeId: alphaRuntime, skills: ['same', 'same'] },
      { name: 'Bad mcp', runtimeId: alphaRuntime, mcpServers: { both: { command: 'x', url: 'https://x.example' } } },
      { name: 'Bad slots', runtimeId: alphaRuntime, maxConcurrentTasks: 0 },
      { name: 'Bad args', runtimeId: alphaRuntime, extraArgs: 'not a list' },
      { name: 'Bad model', runtimeId: alphaRuntime, model: '' },
      { name: 'Extra field', runtimeId: alphaRuntime, shell: 'bash -c' },
    ];
    for (const body of bad) {
      const response = await kit.as(alpha.token).post('/api/agents', body);
      expect({ name: body.name, status: response.status, code: response.body.error?.code }).toEqual({ name: body.name, status: 400, code: 'validation_failed' });
    }
    expect(await kit.count('agent')).toBe(before);
  });

  it('refuses an env key the daemon never passes to an agent, at create and at update, naming the keys', async () => {
    const before = await kit.count('agent');
    const created = await kit.as(alpha.token).post('/api/agents', { name: 'Hooked', runtimeId: alphaRuntime, env: { PATH: '/evil/bin', LD_PRELOAD: '/tmp/x.so', GITHUB_TOKEN: 'ghp_fine' } });
    expect(created.status).toBe(400);
    expect(created.body.error).toMatchObject({ code: 'blocked_environment_key', details: { keys: ['PATH', 'LD_PRELOAD'] } });
    expect(created.body.error.message).toMatch(/^env sets keys an agent may not set: PATH, LD_PRELOAD; /);
    expect(pluck(created.body.error.details.issues, 'path')).toEqual(['env.PATH', 'env.LD_PRELOAD']);
    // Every key of the shared list and prefix is refused, whatever its case (the daemon compares upper-cased).
    for (const key of ['HOME', 'NODE_OPTIONS', 'DATABASE_URL', 'ld_library_path', 'Path', 'SWITCHYARD_TASK_TOKEN', 'NATS_CREDS', 'DYLD_INSERT_LIBRARIES']) {
      const response = await kit.as(alpha.token).post('/api/agents', { name: `Blocked ${key}`, runtimeId: alphaRuntime, env: { [key]: 'x' } });
      expect({ key, status: response.status, keys: response.body.error?.details?.keys }).toEqual({ key, status: 400, keys: [key] });
    }
    expect(await kit.count('agent')).toBe(before);

    const id = (await kit.as(alpha.token).post('/api/agents', { name: 'Clean', runtimeId: alphaRuntime, env: { GITHUB_TOKEN: 'ghp_fine' } })).body.id as string;
    const changed = await kit.as(alpha.token).patch(`/api/agents/${id}`, { env: { GITHUB_TOKEN: '********', TMPDIR: '/elsewhere' } });
    expect({ status: changed.status, code: changed.body.error.code, keys: changed.body.error.details.keys }).toEqual({ status: 400, code: 'blocked_environment_key', keys: ['TMPDIR'] });
    const [stored] = await kit.query<{ env: Record<string, string> }>('select env from agent where id = $1', [id]);
    expect(openedEnv(stored?.env)).toEqual({ GITHUB_TOKEN: 'ghp_fine' });
  });

  it('refuses a second active agent with the same name with 409', async () => {
    expect((await kit.as(alpha.token).post('/api/agents', { name: 'Twin', runtimeId: alphaRuntime })).status).toBe(201);
    const twin = await kit.as(alpha.token).post('/api/agents', { name: 'Twin', runtimeId: alphaRuntime });
    expect(twin.status).toBe(409);
    expect(twin.body.error.code).toBe('agent_name_taken');
  });

  it('archives on delete: gone from the list, readable by id, unchangeable, and its name free again', async () => {
    const id = (await kit.as(alpha.token).post('/api/agents', { name: 'Retiring', runtimeId: alphaRuntime })).body.id as string;
    expect((await kit.as(alpha.token).delete(`/api/agents/${id}`)).status).toBe(204);
    expect((await kit.as(alpha.token).delete(`/api/agents/${id}`)).status).toBe(204);
    expect(pluck((await kit.as(alpha.token).get('/api/agents')).body.agents, 'id')).not.toContain(id);
    expect(pluck((await kit.as(alpha.token).get('/api/agents?includeArchived=true')).body.agents, 'id')).toContain(id);
    expect((await kit.as(alpha.token).get(`/api/agents/${id}`)).body.archivedAt).toEqual(expect.any(String));
    const change = await kit.as(alpha.token).patch(`/api/agents/${id}`, { instructions: 'again' });
    expect(change.status).toBe(409);
    expect(change.body.error.code).toBe('agent_archived');
    expect((await kit.as(alpha.token).post('/api/agents', { name: 'Retiring', runtimeId: alphaRuntime })).status).toBe(201);
  });

  it('keeps workspaces apart: B neither lists, reads, changes nor archives A’s agents', async () => {
    const id = (await kit.as(alpha.token).post('/api/agents', { name: 'Alpha private', runtimeId: alphaRuntime })).body.id as string;
    expect((await kit.as(beta.token).get('/api/agents?includeArchived=true')).body.agents).toEqual([]);
    expect((await kit.as(beta.token).get(`/api/agents/${id}`)).status).toBe(404);
    expect((await kit.as(beta.token).patch(`/api/agents/${id}`, { instructions: 'mine now' })).status).toBe(404);
    expect((await kit.as(beta.token).delete(`/api/agents/${id}`)).status).toBe(404);
    expect((await kit.as(alpha.token).get(`/api/agents/${id}`)).body).toMatchObject({ instructions: '', archivedAt: null });
  });
  it('rotates its keys: a gateway booting with a new first key seals every agent again, values in clear from before included', async () => {
    const created = await kit.as(alpha.token).post('/api/agents', { ...fullAgent(), name: 'rotated', runtimeId: alphaRuntime });
    const id = created.body.id as string;
    // A row from before values were sealed.
    await kit.query(`update agent set env = '{"LEGACY_TOKEN":"legacy-clear-value"}'::jsonb where id = $1`, [id]);
    const newKey = generateSecretKey();
    const replica = await startServiceForTest(gatewayApp, {
      database: true,
      replicaOf: kit.gateway,
      env: { GATEWAY_SECRET_KEYS: `${newKey},${kit.secretKeyringText}` },
    });
    try {
      const newRing = secretKeyring(parseSecretKeys(newKey));
      const [stored] = await kit.query<{ env: Record<string, string>; mcp_servers: { github: { env: Record<string, string> } } }>('select env, mcp_servers from agent where id = $1', [id]);
      // Opens with the new key alone: the old one can go.
      expect(newRing.open('agent env value', stored!.env['LEGACY_TOKEN']!)).toBe('legacy-clear-value');
      expect(newRing.open('agent MCP secret value', stored!.mcp_servers.github.env['GITHUB_PAT']!)).toBe('pat_secret');
    } finally {
      await replica.stop();
    }
    // A gateway without that key boots (the reseal skips what it cannot open) but cannot read the agent.
    const stranger = await startServiceForTest(gatewayApp, { database: true, replicaOf: kit.gateway, env: { GATEWAY_SECRET_KEYS: generateSecretKey() } });
    try {
      const response = await fetch(`${stranger.url}/api/agents/${id}`, { headers: { authorization: `Bearer ${alpha.token}` } });
      expect({ status: response.status, code: ((await response.json()) as { error: { code: string } }).error.code }).toEqual({ status: 500, code: 'secret_unreadable' });
    } finally {
      await stranger.stop();
    }
  });
  it('cancels an archived agent’s unfinished tasks, and only its own', async () => {
    const api = kit.as(alpha.token);
    const doomed = (await api.post('/api/agents', { ...fullAgent(), name: 'doomed', runtimeId: alphaRuntime })).body.id as string;
    const kept = (await api.post('/api/agents', { ...fullAgent(), name: 'kept', runtimeId: alphaRuntime })).body.id as string;
    const doomedTask = (await api.post('/api/tasks', { agentId: doomed, prompt: 'run' })).body.taskId as string;
    const keptTask = (await api.post('/api/tasks', { agentId: kept, prompt: 'run' })).body.taskId as string;

    expect((await api.delete(`/api/agents/${doomed}`)).status).toBe(204);

    const status = async (taskId: string) => (await kit.query<{ status: string }>('select status from agent_task_queue where task_id = $1', [taskId]))[0]?.status;
    expect({ doomed: await status(doomedTask), kept: await status(keptTask) }).toEqual({ doomed: 'cancelled', kept: 'queued' });
    expect(queue.bulkCancels.at(-1)?.payload).toMatchObject({ scope: { kind: 'agent', agentId: doomed }, reason: 'the agent was archived' });
  });
});
