import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createJsonLogger } from '@switchyard/service-kit';
import { AgentRequestSocketError } from './agent-request-socket';
import { AgentRequestServer } from './agent-request.server';
import { deferred, requestOverSocket } from './agent-request.spec-helper';
import type { AgentTaskRegistration, AgentRepositoryCheckout } from './agent-task.registry';

const run = promisify(execFile);
const workspaceRoot = path.resolve(__dirname, '../../../..');
const yardMain = path.join(workspaceRoot, 'dist/tools/yard-cli/src/main.js');
const TASK_ID = '0190f3a2-7c1e-7000-8000-00000000b001';
const TOKEN = 'syt_agent-requests-task-token-0123456789';
const REMOTE_PASSWORD = 'remote-password-never-shown-42';
const BRANCH = 'switchyard/issue-1a2b3c4d/0190f3a2';

interface FakeTask {
  readonly registration: AgentTaskRegistration;
  /** Every call of the checkout function, by repository name. */
  readonly calls: string[];
  /** Each call waits on it; open by default. */
  gate: Promise<void>;
  /** Called each time the server reads the task's repositories. */
  onRepositoriesRead: () => void;
}

/**
 * A task as the runner would register it: its checkout makes the folder, or fails like git would
 * (`private`: a typed auth failure quoting the remote with its password; `flaky`: an untyped error).
 */
function fakeTask(workDirectory: string, taskId = TASK_ID, taskToken = TOKEN): FakeTask {
  const checkedOut = new Map<string, string>();
  const repositories = [
    { name: 'api', checkoutMode: 'worktree' },
    { name: 'docs', checkoutMode: 'local_directory' },
    { name: 'private', checkoutMode: 'worktree' },
    { name: 'flaky', checkoutMode: 'worktree' },
  ] as const;
  const task: FakeTask = {
    calls: [],
    gate: Promise.resolve(),
    onRepositoriesRead: () => undefined,
    registration: {
      taskId,
      taskToken,
      repositories: () => {
        task.onRepositoriesRead();
        // The URL rides along as the runner's own objects would carry it: it must not reach the agent.
        return repositories.map((repository) => ({ ...repository, url: `https://x:${REMOTE_PASSWORD}@git.example.com/acme/${repository.name}.git`, checkedOut: checkedOut.has(repository.name), path: checkedOut.get(repository.name) ?? null }));
      },
      checkout: async (name): Promise<AgentRepositoryCheckout> => {
        task.calls.push(name);
        await task.gate;
        if (name === 'private') throw Object.assign(new Error(`authentication failed for https://x-access-token:${REMOTE_PASSWORD}@git.example.com/acme/private.git (token ${taskToken})`), { code: 'repo_auth_failed' });
        if (name === 'flaky') throw new Error('EIO while reading /home/secret-place/objects/pack');
        const folder = path.join(workDirectory, name);
        const reused = checkedOut.has(name);
        mkdirSync(folder, { recursive: true });
        checkedOut.set(name, folder);
        return { path: folder, branch: name === 'docs' ? null : BRANCH, reused };
      },
    },
  };
  return task;
}

describe('AgentRequestServer on a real unix socket, driven by the built yard CLI and a raw client', () => {
  const logLines: string[] = [];
  const logger = createJsonLogger({ service: 'daemon', level: 'debug', destination: { write: (line: string) => void logLines.push(line) } });
  let root: string;
  let workDirectory: string;
  let server: AgentRequestServer;
  let socketPath: string;
  let task: FakeTask;
  let unregister: () => void;

  const raw = (method: string, route: string, options: { token?: string; body?: string } = {}) => requestOverSocket({ socketPath, method, path: route, token: TOKEN, ...options });
  const yard = (args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, [yardMain, 'repo', ...args], { cwd: workDirectory, env: { PATH: process.env['PATH'] ?? '', SWITCHYARD_DAEMON_SOCKET: socketPath, SWITCHYARD_TASK_ID: TASK_ID, SWITCHYARD_TOKEN: TOKEN, ...env } }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  beforeAll(() => {
    execFileSync(process.execPath, [path.join(workspaceRoot, 'tools/build/build.mjs')], { cwd: workspaceRoot, stdio: 'ignore' });
  });

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'sy-agent-req-'));
    workDirectory = path.join(root, 'work');
    mkdirSync(workDirectory);
    server = new AgentRequestServer({ socketPath: path.join(root, 'agent-tools', 'daemon.sock'), logger });
    socketPath = await server.start();
    task = fakeTask(workDirectory);
    unregister = server.register(task.registration);
  });

  afterEach(async () => {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  });

  afterAll(() => {
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(TOKEN);
    expect(logLines.join('\n')).not.toContain(REMOTE_PASSWORD.slice(0, 20));
  });

  it('yard repo checkout checks a repository out into the work dir and prints its path and branch; again, it says it was there', async () => {
    expect(await yard(['list'])).toEqual({ code: 0, stderr: '', stdout: 'api\tworktree\tnot checked out\t-\ndocs\tlocal_directory\tnot checked out\t-\nprivate\tworktree\tnot checked out\t-\nflaky\tworktree\tnot checked out\t-\n' });

    expect(await yard(['checkout', 'api'])).toEqual({ code: 0, stderr: '', stdout: `${path.join(workDirectory, 'api')}\t${BRANCH}\n` });
    expect(existsSync(path.join(workDirectory, 'api'))).toBe(true);
    expect((await yard(['checkout', 'api'])).stdout).toBe(`${path.join(workDirectory, 'api')}\t${BRANCH}\t(already checked out)\n`);
    expect(JSON.parse((await yard(['checkout', 'docs', '--json'])).stdout)).toEqual({ name: 'docs', checkoutMode: 'local_directory', path: path.join(workDirectory, 'docs'), branch: null, reused: false });

    const listed = JSON.parse((await yard(['list', '--json'])).stdout) as { repositories: unknown[] };
    expect(listed.repositories.slice(0, 2)).toEqual([
      { name: 'api', checkoutMode: 'worktree', checkedOut: true, path: path.join(workDirectory, 'api') },
      { name: 'docs', checkoutMode: 'local_directory', checkedOut: true, path: path.join(workDirectory, 'docs') },
    ]);
  });

  it('yard fails with the typed code and a non-zero exit: outside a task, unknown repository, a failed checkout, an ended task, a usage error', async () => {
    const outside = await run(process.execPath, [yardMain, 'repo', 'list'], { env: { PATH: process.env['PATH'] ?? '' } }).catch((error: { code: number; stderr: string }) => error);
    expect(outside).toMatchObject({ code: 1, stderr: expect.stringContaining('not running inside a Switchyard task') });

    expect(await yard(['checkout', 'nope'])).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(/^yard: repository_not_found: .*nope.*\(daemon, HTTP 404\)\n$/) });

    const failed = await yard(['checkout', 'private']);
    expect(failed).toMatchObject({ code: 1, stderr: expect.stringMatching(/^yard: repo_auth_failed: authentication failed for https:\/\/x-access-token:.*\(daemon, HTTP 502\)\n$/) });
    expect(failed.stderr).not.toContain(REMOTE_PASSWORD);
    expect(failed.stderr).not.toContain(TOKEN);

    expect(await yard(['checkout'])).toMatchObject({ code: 2, stderr: expect.stringContaining('missing the repository name') });
    expect(await yard(['checkout', 'api', 'docs'])).toMatchObject({ code: 2, stderr: expect.stringContaining('takes one repository') });

    unregister();
    expect(await yard(['list'])).toMatchObject({ code: 1, stderr: expect.stringMatching(/^yard: task_token_inactive: .*\(daemon, HTTP 401\)\n$/) });
    await server.stop();
    expect(await yard(['list'])).toMatchObject({ code: 1, stderr: expect.stringMatching(/^yard: daemon_unreachable: the daemon does not answer on .*daemon\.sock \(ENOENT\)/) });
  });

  it('refuses without the task’s own token, the same way for an unknown task, and never names the token', async () => {
    const inactive = { status: 401, body: { error: { code: 'task_token_inactive', message: expect.any(String) } } };
    const listRoute = `/v1/tasks/${TASK_ID}/repositories`;
    expect(await raw('GET', listRoute, { token: `${TOKEN}x` })).toEqual(inactive);
    expect(await raw('GET', listRoute, { token: TOKEN.slice(0, -1) })).toEqual(inactive);
    expect(await requestOverSocket({ socketPath, method: 'GET', path: listRoute })).toEqual(inactive);
    expect(await raw('GET', '/v1/tasks/0190f3a2-7c1e-7000-8000-00000000ffff/repositories')).toEqual(inactive);
    // Another task's token opens only that task.
    const other = fakeTask(workDirectory, '0190f3a2-7c1e-7000-8000-00000000b002', 'syt_other-task-token-0123456789abcdef');
    server.register(other.registration);
    expect(await raw('POST', `/v1/tasks/${TASK_ID}/repositories/api/checkout`, { token: other.registration.taskToken })).toEqual(inactive);
    expect(task.calls).toEqual([]);
  });

  it('answers the task’s repositories field by field, never their URL or credential', async () => {
    const answer = await raw('GET', `/v1/tasks/${TASK_ID}/repositories`);
    expect(answer.status).toBe(200);
    expect((answer.body as { repositories: unknown[] }).repositories[0]).toEqual({ name: 'api', checkoutMode: 'worktree', checkedOut: false, path: null });
    expect(JSON.stringify(answer.body)).not.toContain(REMOTE_PASSWORD);
  });

  it('refuses bad requests with a code: unknown repository, bad name, unknown route, wrong method, bad JSON, a body over the limit', async () => {
    const checkoutOf = (name: string) => `/v1/tasks/${TASK_ID}/repositories/${name}/checkout`;
    const codeOf = async (answer: Promise<{ status: number; body: unknown }>) => {
      const { status, body } = await answer;
      return { status, code: (body as { error?: { code?: string } }).error?.code };
    };
    expect(await codeOf(raw('POST', checkoutOf('nope')))).toEqual({ status: 404, code: 'repository_not_found' });
    expect(await codeOf(raw('POST', checkoutOf('..%2Fetc')))).toEqual({ status: 400, code: 'invalid_repository_name' });
    expect(await codeOf(raw('POST', checkoutOf('API')))).toEqual({ status: 400, code: 'invalid_repository_name' });
    expect(await codeOf(raw('GET', '/v1/tasks'))).toEqual({ status: 404, code: 'route_not_found' });
    expect(await codeOf(raw('GET', checkoutOf('api')))).toEqual({ status: 405, code: 'method_not_allowed' });
    expect(await codeOf(raw('POST', checkoutOf('api'), { body: '{"unterminated' }))).toEqual({ status: 400, code: 'invalid_json' });
    expect(await codeOf(raw('POST', checkoutOf('api'), { body: '[1]' }))).toEqual({ status: 400, code: 'invalid_json' });
    expect(await codeOf(raw('POST', checkoutOf('api'), { body: JSON.stringify({ padding: 'x'.repeat(20 * 1024) }) }))).toEqual({ status: 413, code: 'request_too_large' });
    expect(task.calls).toEqual([]);
    // Still serving after all that.
    expect(await codeOf(raw('POST', checkoutOf('api'), { body: '{}' }))).toEqual({ status: 200, code: undefined });
  });

  it('passes a typed checkout error through with its code and a redacted message; an untyped one becomes checkout_failed without its details', async () => {
    const typed = await raw('POST', `/v1/tasks/${TASK_ID}/repositories/private/checkout`);
    expect(typed).toEqual({ status: 502, body: { error: { code: 'repo_auth_failed', message: expect.stringContaining('authentication failed for https://x-access-token:') } } });
    expect(JSON.stringify(typed.body)).not.toContain(REMOTE_PASSWORD);
    expect(JSON.stringify(typed.body)).not.toContain(TOKEN);
    expect(JSON.stringify(typed.body)).not.toMatch(/\n\s+at /);

    const untyped = await raw('POST', `/v1/tasks/${TASK_ID}/repositories/flaky/checkout`);
    expect(untyped).toEqual({ status: 500, body: { error: { code: 'checkout_failed', message: 'the checkout of flaky failed unexpectedly: the daemon’s log has the details' } } });
    expect(logLines.some((line) => line.includes('agent_repository_checkout_failed') && line.includes('secret-place'))).toBe(true);
  });

  it('runs one checkout per repository at a time: concurrent requests for one name get the one answer', async () => {
    const gate = deferred();
    const bothArrived = deferred();
    let reads = 0;
    task.gate = gate.promise;
    task.onRepositoriesRead = () => {
      reads += 1;
      if (reads === 3) bothArrived.resolve();
    };
    const route = `/v1/tasks/${TASK_ID}/repositories/api/checkout`;
    const answers = Promise.all([raw('POST', route), raw('POST', route), raw('POST', `/v1/tasks/${TASK_ID}/repositories/docs/checkout`)]);
    // Each request reads the repositories just before it joins or starts its checkout.
    await bothArrived.promise;
    gate.resolve();
    const [first, second, other] = await answers;

    expect(task.calls.sort()).toEqual(['api', 'docs']);
    expect(first).toEqual({ status: 200, body: { name: 'api', checkoutMode: 'worktree', path: path.join(workDirectory, 'api'), branch: BRANCH, reused: false } });
    expect(second).toEqual(first);
    expect(other.status).toBe(200);
    // Once it is done, the next request is a checkout of its own.
    expect((await raw('POST', route)).body).toMatchObject({ reused: true });
    expect(task.calls.filter((name) => name === 'api')).toHaveLength(2);
  });

  it('listens owner-only and removes its socket when it stops', async () => {
    expect(statSync(socketPath).mode & 0o777).toBe(0o600);
    await server.stop();
    expect(existsSync(socketPath)).toBe(false);
  });

  it('replaces a stale socket file left by a killed daemon', async () => {
    await server.stop();
    // A process killed outright leaves its socket file behind.
    const script = `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`;
    await run(process.execPath, ['-e', script]).catch((error: { signal?: string }) => expect(error.signal).toBe('SIGKILL'));
    expect(statSync(socketPath).isSocket()).toBe(true);

    server = new AgentRequestServer({ socketPath, logger });
    expect(await server.start()).toBe(socketPath);
    server.register(task.registration);
    expect((await raw('GET', `/v1/tasks/${TASK_ID}/repositories`)).status).toBe(200);
  });

  it('refuses to start on a socket another process listens on, on a file that is not a socket, or on a path too long for a socket', async () => {
    const second = new AgentRequestServer({ socketPath, logger });
    await expect(second.start()).rejects.toMatchObject({ code: 'socket_in_use' });
    expect((await raw('GET', `/v1/tasks/${TASK_ID}/repositories`)).status).toBe(200);

    const regularFile = path.join(root, 'not-a-socket');
    writeFileSync(regularFile, 'keep me');
    await expect(new AgentRequestServer({ socketPath: regularFile, logger }).start()).rejects.toMatchObject({ code: 'socket_path_occupied' });
    expect(statSync(regularFile).isFile()).toBe(true);

    const tooLong = path.join(root, 'x'.repeat(120), 'daemon.sock');
    const refused = new AgentRequestServer({ socketPath: tooLong, logger }).start();
    await expect(refused).rejects.toBeInstanceOf(AgentRequestSocketError);
    await expect(refused).rejects.toMatchObject({ code: 'socket_path_too_long', message: expect.stringContaining('at most 103') });
  });
});
