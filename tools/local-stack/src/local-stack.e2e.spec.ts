import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { connectMessaging } from '@switchyard/messaging';
import { deleteNamespaceStreams } from '@switchyard/messaging/testing';
import { createTestDatabase, testNatsUrl, uniqueNamespace, connectTestMessaging, TEST_BUS_AUTHORITY_KEY } from '@switchyard/testing';

const workspaceRoot = path.resolve(__dirname, '../../..');
const supervisorEntry = path.join(workspaceRoot, 'dist/tools/local-stack/src/main.js');
const SERVICES = ['queue', 'transcript', 'session-resume', 'daemon', 'gateway'];

interface StackFile {
  readonly pid: number;
  readonly nats: string;
  readonly services: Array<{ name: string; url: string; pid: number }>;
}

interface RunningStack {
  readonly child: ChildProcess;
  readonly home: string;
  output: string;
  readonly exited: Promise<number | null>;
}

function startStack(env: NodeJS.ProcessEnv): RunningStack {
  const home = mkdtempSync(path.join(tmpdir(), 'switchyard-stack-'));
  const child = spawn(process.execPath, [supervisorEntry], {
    cwd: workspaceRoot,
    env: { ...env, SWITCHYARD_HOME: home, SWITCHYARD_GATEWAY_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stack: RunningStack = {
    child,
    home,
    output: '',
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  };
  child.stdout?.on('data', (chunk: Buffer) => (stack.output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stack.output += chunk.toString()));
  return stack;
}

async function waitForOutput(stack: RunningStack, pattern: RegExp, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(stack.output)) {
    if (stack.child.exitCode !== null) throw new Error(`the stack exited early:\n${stack.output}`);
    if (Date.now() > deadline) throw new Error(`no ${String(pattern)} in time:\n${stack.output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Environment of a fresh shell: nothing of the test run's NATS or database leaks in by accident. */
function cleanEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith('SWITCHYARD_') || key === 'NATS_URL' || key === 'DATABASE_URL') delete env[key];
  }
  return env;
}

/**
 * A whole stack boots, serves and stops in each test: the readiness wait alone may take 90 s on a
 * loaded machine (the embedded database is the slowest part), more than the default 60 s.
 */
const STACK_TEST_TIMEOUT_MS = 180_000;

/** The identities of the CLIs `npm install` pins in tests/agent-clis. */
const PINNED_IDENTITIES = ['claude-code', 'codex', 'copilot', 'gemini-cli', 'opencode', 'pi', 'qwen-code'];

async function proveStackRunsAndStops(env: NodeJS.ProcessEnv, ...checks: Array<(stack: RunningStack) => void | Promise<void>>): Promise<void> {
  const stack = startStack(env);
  try {
    // The supervisor's own readiness deadline (60 s by default) bounds this wait.
    await waitForOutput(stack, /ready in [\d.]+ s/, 90_000);
    const state = JSON.parse(readFileSync(path.join(stack.home, 'stack.json'), 'utf8')) as StackFile;
    expect(state.services.map((service) => service.name).sort()).toEqual([...SERVICES].sort());
    for (const service of state.services) {
      const response = await fetch(`${service.url}/readyz`);
      expect({ service: service.name, status: response.status }).toEqual({ service: service.name, status: 200 });
      expect(stack.output).toContain(service.url);
    }
    // Its NATS is in operator mode: a client without credentials is refused.
    await expect(connectMessaging({ url: state.nats, name: 'anonymous', connectTimeoutMs: 2_000 })).rejects.toThrow(/authorization/i);
    for (const check of checks) await check(stack);

    stack.child.kill('SIGINT');
    expect(await stack.exited).toBe(0);
    for (const service of state.services) expect({ service: service.name, alive: isAlive(service.pid) }).toEqual({ service: service.name, alive: false });
    expect(existsSync(path.join(stack.home, 'stack.json'))).toBe(false);
  } finally {
    if (stack.child.exitCode === null) stack.child.kill('SIGKILL');
  }
}

describe('npm start (local stack)', () => {
  beforeAll(() => {
    execFileSync(process.execPath, [path.join(workspaceRoot, 'tools/build/build.mjs')], { cwd: workspaceRoot, stdio: 'ignore' });
  });

  it('with no NATS_URL and no DATABASE_URL: starts a private nats-server and the embedded database, all ready, Ctrl-C leaves nothing behind', async () => {
    await proveStackRunsAndStops(cleanEnvironment(), (stack) => {
      // The pinned CLIs are found with no PATH set-up, the banner says so, and `npx yard` (this
      // project's own bin) lists them.
      expect(stack.output).toContain(`runtimes        ${PINNED_IDENTITIES.length} registered:`);
      for (const identity of PINNED_IDENTITIES) expect(stack.output).toMatch(new RegExp(`${identity} +\\S+ +${workspaceRoot}/tests/agent-clis/node_modules/\\.bin/`));
      expect(stack.output).toMatch(/not on PATH \(\d+\): .*cursor-agent/);
      const listed = execFileSync('npx', ['--no', 'yard', 'runtime', 'list'], { cwd: workspaceRoot, env: { ...cleanEnvironment(), SWITCHYARD_HOME: stack.home }, encoding: 'utf8' });
      const online = listed
        .trim()
        .split('\n')
        .filter((line) => line.endsWith('online'))
        .map((line) => line.split('\t')[1]?.split(' ')[0]);
      expect(online.sort()).toEqual(PINNED_IDENTITIES);
      // The home is ignored by git wherever it is.
      expect(readFileSync(path.join(stack.home, '.gitignore'), 'utf8')).toContain('*');
    }, async (stack) => {
      // The first owner's one-time sign-in link, printed at start, signs in once.
      await waitForOutput(stack, /sign in\s+http/, 30_000);
      const link = /sign in\s+(http:\/\/\S+\/auth\/link\/syl_\S+)/.exec(stack.output)?.[1];
      expect(link).toBeDefined();
      const signedIn = await fetch(link!, { redirect: 'manual' });
      expect(signedIn.status).toBe(303);
      const cookie = signedIn.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
      const me = (await (await fetch(`${new URL(link!).origin}/api/me`, { headers: { cookie } })).json()) as { user: { email: string }; memberships: Array<{ workspaceId: string; role: string }> };
      expect(me).toMatchObject({ user: { email: 'owner@switchyard.local' }, memberships: [{ workspaceId: 'default', role: 'owner' }] });
      expect((await fetch(link!, { redirect: 'manual' })).status).toBe(401);
    });
    // The private nats-server and the embedded database are gone too: their stores are unlocked.
    const processes = execFileSync('ps', ['-eo', 'args']).toString();
    expect(processes).not.toContain('switchyard-stack-');
  }, STACK_TEST_TIMEOUT_MS);

  it('with NATS_URL and DATABASE_URL: uses them, all ready, Ctrl-C leaves nothing behind', async () => {
    const database = await createTestDatabase();
    const namespace = uniqueNamespace();
    try {
      // The stack mints its processes' users from the authority the given NATS trusts.
      await proveStackRunsAndStops({ ...cleanEnvironment(), NATS_URL: testNatsUrl(), DATABASE_URL: database.url, SWITCHYARD_NAMESPACE: namespace, SWITCHYARD_BUS_AUTHORITY: process.env[TEST_BUS_AUTHORITY_KEY] });
    } finally {
      await database.drop();
      const connection = await connectTestMessaging({ name: 'local-stack-e2e-cleanup', namespace });
      await deleteNamespaceStreams(connection);
      await connection.close();
    }
  }, STACK_TEST_TIMEOUT_MS);
});
