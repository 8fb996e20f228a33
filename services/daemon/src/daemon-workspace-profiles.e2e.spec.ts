import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { enrollmentAuthorityOf, saveEnrollmentAuthority, startAuthenticatedNatsServer, type NatsServerProcess } from '@switchyard/messaging';
import { startSystemProcesses, testBusAuthority, type ServiceChild, type SystemProcesses } from '@switchyard/testing';

const TOKEN = `sy_workspace-profiles-e2e-${'x'.repeat(24)}`;

interface RuntimeRow {
  readonly runtimeId: string;
  readonly status: string;
  readonly profileId?: string | null;
}

interface Answer {
  readonly id?: string;
  readonly token?: string;
  readonly daemons?: Array<{ readonly id: string }>;
  readonly runtimes?: RuntimeRow[];
}

/**
 * A runtime profile created over REST reaches the enrolled daemon of that workspace (through the
 * `runtime-profiles` bucket and the workspace grant in its user JWT) and is offered without a
 * restart; deleting it takes the runtime offline. On a nats-server of its own, as enrollment needs.
 */
describe('runtime profiles over REST reach the daemon (real processes, own nats-server)', () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'switchyard-workspace-profiles-'));
  let nats: NatsServerProcess;
  let system: SystemProcesses;
  let daemon: ServiceChild | undefined;

  const api = async (method: string, route: string, body?: unknown): Promise<{ status: number; body: Answer }> => {
    const response = await fetch(new URL(route, system.gatewayUrl), {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json().catch(() => ({}))) as Answer };
  };

  beforeAll(async () => {
    const authority = testBusAuthority();
    nats = await startAuthenticatedNatsServer({ directory: path.join(directory, 'nats'), authority });
    const enrollmentAuthority = saveEnrollmentAuthority(path.join(directory, 'enrollment-authority.json'), await enrollmentAuthorityOf(authority));
    system = await startSystemProcesses({
      services: ['queue', 'session-resume', 'transcript', 'gateway'],
      natsUrl: nats.url,
      gatewayToken: TOKEN,
      // The default offline-after: a runtime shown offline here was said offline by its daemon.
      serviceEnv: { gateway: { GATEWAY_ENROLLMENT_AUTHORITY_FILE: enrollmentAuthority } },
    });
  }, 180_000);

  afterAll(async () => {
    await daemon?.stop();
    await system?.stop();
    await nats?.stop();
    rmSync(directory, { recursive: true, force: true });
  }, 60_000);

  async function runtimes(): Promise<RuntimeRow[]> {
    return (await api('GET', '/api/runtimes')).body.runtimes ?? [];
  }

  async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('offers a profile created after the daemon started, and takes it offline when it is deleted', async () => {
    const enrollment = await api('POST', '/api/daemon-enrollments', {});
    expect(enrollment.status).toBe(201);
    daemon = await system.startDaemon({ env: { DAEMON_ENROLLMENT_TOKEN: String(enrollment.body.token), DAEMON_GATEWAY_URL: system.gatewayUrl } });
    const daemonId = (await waitFor(() => api('GET', '/api/daemons'), (answer) => answer.body.daemons?.length === 1)).body.daemons![0]!.id;
    await waitFor(runtimes, (rows) => rows.some((row) => row.runtimeId === `${daemonId}-claude-code` && row.status === 'online'));

    // The real Claude Code on the daemon's PATH, offered a second time under a profile.
    const created = await api('POST', '/api/runtime-profiles', { displayName: 'Team Claude', protocolFamily: 'claude-stream-json', commandName: 'claude', fixedArgs: [] });
    expect(created.status).toBe(201);
    const profileRuntimeId = `${daemonId}-profile-${String(created.body.id)}`;

    const offered = await waitFor(runtimes, (rows) => rows.some((row) => row.runtimeId === profileRuntimeId && row.status === 'online'));
    expect(offered.find((row) => row.runtimeId === profileRuntimeId)).toMatchObject({ status: 'online', profileId: created.body.id });

    expect((await api('DELETE', `/api/runtime-profiles/${String(created.body.id)}`)).status).toBe(204);
    const after = await waitFor(runtimes, (rows) => rows.some((row) => row.runtimeId === profileRuntimeId && row.status === 'offline'));
    // The daemon itself carried on: its built-in runtime stayed online throughout.
    expect(after.find((row) => row.runtimeId === `${daemonId}-claude-code`)?.status).toBe('online');
  }, 180_000);
});
