import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectMessaging, enrollmentAuthorityOf, saveEnrollmentAuthority, startAuthenticatedNatsServer, type NatsServerProcess } from '@switchyard/messaging';
import { startSystemProcesses, testBusAuthority, type ServiceChild, type SystemProcesses } from '@switchyard/testing';

const TOKEN = `sy_enrollment-e2e-${'x'.repeat(24)}`;

interface RuntimeRow {
  readonly runtimeId: string;
  readonly status: string;
}

interface DaemonRow {
  readonly id: string;
  readonly revokedAt: string | null;
  readonly userPublicKey: string;
}

/** The fields of the gateway's answers this test reads. */
interface Answer {
  readonly token?: string;
  readonly daemons?: DaemonRow[];
  readonly runtimes?: RuntimeRow[];
  readonly revokedAt?: string | null;
  readonly error?: { readonly code: string };
}

/**
 * A daemon enrolls with a one-time token, runs under the id the gateway gave it, and is cut off
 * when revoked. Revocation rewrites the account's JWT, so this runs on a nats-server of its own
 * (the run's shared one keeps its account untouched), trusting the test bus's authority.
 */
describe('daemon enrollment and revocation (real processes, own nats-server)', () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'switchyard-enrollment-'));
  let nats: NatsServerProcess;
  let system: SystemProcesses;
  let daemon: ServiceChild | undefined;

  const api = async (method: string, route: string, body?: unknown, token: string | undefined = TOKEN): Promise<{ status: number; body: Answer }> => {
    const response = await fetch(new URL(route, system.gatewayUrl), {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: ((await response.json().catch(() => ({}))) as Answer) };
  };

  beforeAll(async () => {
    const authority = testBusAuthority();
    nats = await startAuthenticatedNatsServer({ directory: path.join(directory, 'nats'), authority });
    const enrollmentAuthority = saveEnrollmentAuthority(path.join(directory, 'enrollment-authority.json'), await enrollmentAuthorityOf(authority));
    system = await startSystemProcesses({
      services: ['queue', 'session-resume', 'transcript', 'gateway'],
      natsUrl: nats.url,
      gatewayToken: TOKEN,
      serviceEnv: { gateway: { GATEWAY_ENROLLMENT_AUTHORITY_FILE: enrollmentAuthority, GATEWAY_RUNTIME_OFFLINE_AFTER_MS: '2000' } },
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

  async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what} did not happen: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('enrolls once with a one-time token under a random id, and a revoked daemon is disconnected and refused', async () => {
    const enrollment = await api('POST', '/api/daemon-enrollments', {});
    expect(enrollment.status).toBe(201);
    expect(enrollment.body.token).toMatch(/^sye_/);
    const enrollmentToken = String(enrollment.body.token);

    daemon = await system.startDaemon({ env: { DAEMON_ENROLLMENT_TOKEN: enrollmentToken, DAEMON_GATEWAY_URL: system.gatewayUrl } });
    const listed = await waitFor(() => api('GET', '/api/daemons'), (answer) => answer.body.daemons?.length === 1, 'the enrollment');
    const enrolled = listed.body.daemons![0]!;
    expect(enrolled.id).toMatch(/^daemon-[0-9a-f]{20}$/);
    expect(enrolled.revokedAt).toBeNull();
    // Its runtimes run under that id, registered over its own NATS user.
    const online = await waitFor(runtimes, (rows) => rows.some((row) => row.runtimeId.startsWith(`${enrolled.id}-`) && row.status === 'online'), 'a runtime of the enrolled daemon online');
    expect(online.filter((row) => row.runtimeId.startsWith(`${enrolled.id}-`)).length).toBeGreaterThan(0);

    // Its seeds and credentials are the daemon's own, readable by its user only.
    for (const file of ['identity.json', 'daemon.creds', 'curve.nk']) expect({ file, mode: statSync(path.join(system.home, 'identity', file)).mode & 0o777 }).toEqual({ file, mode: 0o600 });
    expect(statSync(path.join(system.home, 'identity')).mode & 0o777).toBe(0o700);

    // The token is good once; an unknown one is refused the same way.
    const again = await api('POST', '/api/daemons/enroll', { token: enrollmentToken, name: 'copycat', userPublicKey: enrolled.userPublicKey, curvePublicKey: `X${'A'.repeat(55)}` }, undefined);
    expect({ status: again.status, code: again.body.error?.code }).toEqual({ status: 401, code: 'enrollment_refused' });

    const revoked = await api('DELETE', `/api/daemons/${enrolled.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    // NATS dropped it: its runtimes go silent and offline, and its credentials no longer connect.
    await waitFor(runtimes, (rows) => rows.filter((row) => row.runtimeId.startsWith(`${enrolled.id}-`)).every((row) => row.status === 'offline'), 'the revoked daemon’s runtimes offline');
    // The daemon process ends by itself: NATS refuses its user for good.
    await daemon.exited;
    await expect(
      connectMessaging({ url: nats.url, name: 'revoked-daemon-again', credentialsFile: path.join(system.home, 'identity', 'daemon.creds'), jetStreamAccess: 'publish', connectTimeoutMs: 2_000 }),
    ).rejects.toThrow(/authorization|revoked/i);
  }, 120_000);
});
