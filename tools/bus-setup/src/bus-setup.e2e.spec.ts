import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { connectMessaging, startNatsServer, type NatsServerProcess } from '@switchyard/messaging';
import { runMigrations } from '@switchyard/persistence';
import { createTestDatabase, serviceChildEnvironment, startServiceChild, uniqueNamespace, workspaceRoot, type ServiceChild, type TestDatabase } from '@switchyard/testing';

const run = promisify(execFile);
const TOKEN = `sy_bus-setup-e2e-${'x'.repeat(24)}`;

interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

// Asynchronous on purpose: the gateway's log pipe is read by this process while the child runs.
async function runIn(root: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<RunResult> {
  try {
    const { stdout, stderr } = await run(command, [...args], { cwd: root, env: { PATH: process.env['PATH'] ?? '', ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/**
 * A deployment made only from `init`'s output, as Compose runs it: nats-server on its config, the
 * gateway on its creds and enrollment authority, the daemon enrolled by deploy/docker's script,
 * and a revocation that NATS enforces.
 */
describe('a deployment from bus-setup init (built processes)', () => {
  const root = workspaceRoot();
  const directory = mkdtempSync(path.join(tmpdir(), 'switchyard-bus-setup-e2e-'));
  const bus = path.join(directory, 'bus');
  const home = path.join(directory, 'daemon-home');
  const namespace = uniqueNamespace();
  let nats: NatsServerProcess;
  let database: TestDatabase;
  let gateway: ServiceChild;

  const api = async (method: string, route: string): Promise<{ status: number; body: { daemons?: Array<{ id: string }>; revokedAt?: string | null } }> => {
    const response = await fetch(new URL(route, gateway.url), { method, headers: { authorization: `Bearer ${TOKEN}` } });
    return { status: response.status, body: (await response.json()) as never };
  };
  const connectDaemon = (daemonId: string) =>
    connectMessaging({ url: nats.url, name: 'bus-setup-e2e-daemon', namespace, credentialsFile: path.join(home, 'identity', 'daemon.creds'), inboxPrefix: `_INBOX.${daemonId}`, jetStreamAccess: 'publish', connectTimeoutMs: 10_000 });

  beforeAll(async () => {
    await run(process.execPath, [path.join(root, 'tools/build/build.mjs')]);
    const init = await runIn(root, process.execPath, [
      'dist/tools/bus-setup/src/main.js', 'init', '--out', bus, '--namespace', namespace, '--host', '127.0.0.1', '--port=-1',
      '--jetstream-dir', path.join(directory, 'data', 'jetstream'), '--resolver-dir', path.join(directory, 'data', 'resolver'),
    ], {});
    expect(init).toEqual(expect.objectContaining({ code: 0 }));
    nats = await startNatsServer({ storeDirectory: path.join(directory, 'data', 'jetstream'), configFile: path.join(bus, 'nats-server.conf') });
    database = await createTestDatabase();
    await runMigrations({ url: database.url });
    gateway = await startServiceChild({
      entry: 'services/gateway/src/main.js',
      env: {
        ...serviceChildEnvironment({ natsUrl: nats.url, namespace }),
        DATABASE_URL: database.url,
        GATEWAY_BOOTSTRAP_TOKEN: TOKEN,
        NATS_CREDENTIALS_FILE: path.join(bus, 'gateway.creds'),
        GATEWAY_ENROLLMENT_AUTHORITY_FILE: path.join(bus, 'enrollment-authority.json'),
      },
      timeoutMs: 60_000,
    });
  }, 120_000);

  afterAll(async () => {
    await gateway?.stop();
    await database?.drop();
    await nats?.stop();
    rmSync(directory, { recursive: true, force: true });
  }, 60_000);

  it('enrolls the daemon once with the Compose script, and NATS refuses it once revoked', async () => {
    const scriptEnv = { SWITCHYARD_HOME: home, DAEMON_GATEWAY_URL: gateway.url, SWITCHYARD_API_TOKEN: TOKEN, DAEMON_NAME: 'compose daemon' };
    const enrolled = await runIn(root, 'sh', ['deploy/docker/enroll-daemon.sh'], scriptEnv);
    expect(enrolled).toEqual(expect.objectContaining({ code: 0, stdout: expect.stringMatching(/^enrolled daemon daemon-[0-9a-f]{20} in workspace default/) as string }));
    const daemonId = /daemon-[0-9a-f]{20}/.exec(enrolled.stdout)![0];
    expect(existsSync(path.join(home, 'identity', 'identity.json'))).toBe(true);
    const connection = await connectDaemon(daemonId);
    await connection.close();

    // Every later start of the stack runs it again: it must leave the identity alone.
    const again = await runIn(root, 'sh', ['deploy/docker/enroll-daemon.sh'], scriptEnv);
    expect(again).toEqual(expect.objectContaining({ code: 0, stdout: expect.stringContaining('already holds an enrolled daemon') as string }));
    expect((await api('GET', '/api/daemons')).body.daemons?.map((daemon) => daemon.id)).toEqual([daemonId]);

    const revoked = await api('DELETE', `/api/daemons/${daemonId}`);
    expect(revoked.status).toBe(200);
    await expect(connectDaemon(daemonId)).rejects.toThrow(/authorization|revoked/i);
  }, 60_000);

  it('enrollment-token says why the gateway refused, with exit code 1, and never prints a token', async () => {
    const refused = await runIn(root, process.execPath, ['dist/tools/bus-setup/src/main.js', 'enrollment-token', '--gateway', gateway.url], { SWITCHYARD_API_TOKEN: `sy_wrong-${'y'.repeat(24)}` });

    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/HTTP 401/);
  });
});
