import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { enrollmentAuthorityOf, saveEnrollmentAuthority, startAuthenticatedNatsServer, type NatsServerProcess } from '@switchyard/messaging';
import { startSystemProcesses, testBusAuthority, type ServiceChild, type SystemProcesses, type SystemService } from '@switchyard/testing';
import { queryRows } from '../process-faults/timeline-audit';

/** The API token of the workspace `default`, where every daemon of the suite enrolls. */
export const ADMIN_TOKEN = `sy_bus-attacks-admin-${'a'.repeat(24)}`;
export const WORKSPACE_ID = 'default';
const SERVICES: readonly SystemService[] = ['queue', 'session-resume', 'transcript', 'gateway'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read loosely; the gateway's own tests prove its schemas
export type LooseJson = any;

export interface GatewayAnswer {
  readonly status: number;
  readonly body: LooseJson;
}

/** One REST call to the gateway, with the admin token unless `token` says otherwise (`null`: none). */
export type GatewayApi = (method: string, route: string, body?: unknown, options?: { readonly token?: string | null }) => Promise<GatewayAnswer>;

/** A process of the system, as the final health check sees it. */
export interface SystemProcess {
  readonly name: SystemService | 'daemon';
  readonly child: ServiceChild;
}

export interface ProcessHealth {
  readonly name: string;
  readonly alive: boolean;
  readonly healthz: number | string;
  readonly readyz: number | string;
}

/** The enrolled daemon that runs every honest task of the suite (the real CLI on the mock model). */
export interface VictimDaemon {
  readonly daemonId: string;
  readonly runtimeId: string;
  /** Its `.creds`, as a thief who read its home would hold them. */
  readonly credentialsFile: string;
  readonly child: ServiceChild;
}

export interface AttackSystem {
  readonly system: SystemProcesses;
  /** The suite's own nats-server: revocation rewrites its account, which the run's shared server must keep. */
  readonly natsUrl: string;
  readonly api: GatewayApi;
  readonly victim: VictimDaemon;
  query<Row extends object>(sql: string, parameters?: unknown[]): Promise<Row[]>;
  processes(): SystemProcess[];
  health(): Promise<ProcessHealth[]>;
  /** Log lines (parsed JSON) of one process so far. */
  logLines(name: SystemProcess['name']): Array<Record<string, unknown>>;
  stop(): Promise<void>;
}

/** Polls `probe` until it returns something other than `undefined`/`false`; fails at the deadline with the last value. */
export async function until<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, options: { readonly description: string; readonly timeoutMs?: number }): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.description}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function gatewayApi(url: () => string): GatewayApi {
  return async (method, route, body, options = {}) => {
    const token = options.token === undefined ? ADMIN_TOKEN : options.token;
    const response = await fetch(new URL(route, url()), {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- read loosely, see LooseJson
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };
}

/**
 * Queue, session-resume, transcript and gateway as built processes on a nats-server of the suite's
 * own (trusting the test bus's authority, so tests mint any identity), the gateway holding the
 * enrollment authority, and one daemon enrolled through the gateway with a one-time token, as in
 * production. Every child logs to a file the suite reads back.
 */
export async function startAttackSystem(): Promise<AttackSystem> {
  const directory = mkdtempSync(path.join(tmpdir(), 'switchyard-bus-attacks-'));
  const logDirectory = path.join(directory, 'logs');
  mkdirSync(logDirectory);
  const previousLogDirectory = process.env['SWITCHYARD_CHILD_LOG_DIR'];
  process.env['SWITCHYARD_CHILD_LOG_DIR'] = logDirectory;
  const cleanups: Array<() => Promise<unknown>> = [
    () => {
      if (previousLogDirectory === undefined) delete process.env['SWITCHYARD_CHILD_LOG_DIR'];
      else process.env['SWITCHYARD_CHILD_LOG_DIR'] = previousLogDirectory;
      rmSync(directory, { recursive: true, force: true });
      return Promise.resolve();
    },
  ];
  const stop = async (): Promise<void> => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    const authority = testBusAuthority();
    const nats: NatsServerProcess = await startAuthenticatedNatsServer({ directory: path.join(directory, 'nats'), authority });
    cleanups.push(() => nats.stop());
    const enrollmentAuthority = saveEnrollmentAuthority(path.join(directory, 'enrollment-authority.json'), await enrollmentAuthorityOf(authority));
    const system = await startSystemProcesses({
      services: SERVICES,
      natsUrl: nats.url,
      gatewayToken: ADMIN_TOKEN,
      serviceEnv: { gateway: { GATEWAY_ENROLLMENT_AUTHORITY_FILE: enrollmentAuthority }, transcript: { TRANSCRIPT_ACK_WAIT_MS: '2000' } },
    });
    cleanups.push(() => system.stop());
    const api = gatewayApi(() => system.gatewayUrl);
    const victim = await startVictimDaemon({ system, api });
    cleanups.push(() => victim.child.stop());
    const processes = (): SystemProcess[] => [...SERVICES.map((name) => ({ name, child: system.service(name) })), { name: 'daemon' as const, child: victim.child }];
    return {
      system,
      natsUrl: nats.url,
      api,
      victim,
      query: (sql, parameters = []) => queryRows(system.databaseUrl, sql, parameters),
      processes,
      health: () => Promise.all(processes().map(({ name, child }) => healthOf(name, child))),
      logLines: (name) => {
        const child = processes().find((candidate) => candidate.name === name)?.child;
        const file = readdirSync(logDirectory).find((entry) => entry.includes(`_${name}_`) && entry.endsWith(`-${child?.pid ?? -1}.log`));
        if (!file) return [];
        return readFileSync(path.join(logDirectory, file), 'utf8')
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Enrolls a daemon process with a one-time token (its keys made on its side) and waits for its Claude runtime online. */
async function startVictimDaemon(options: { readonly system: SystemProcesses; readonly api: GatewayApi }): Promise<VictimDaemon> {
  const { system, api } = options;
  const enrollment = await api('POST', '/api/daemon-enrollments', {});
  if (enrollment.status !== 201) throw new Error(`enrollment token refused: ${enrollment.status} ${JSON.stringify(enrollment.body)}`);
  const child = await system.startDaemon({
    env: { DAEMON_ENROLLMENT_TOKEN: String((enrollment.body as { token: unknown }).token), DAEMON_GATEWAY_URL: system.gatewayUrl, DAEMON_HEARTBEAT_INTERVAL_MS: '500' },
  });
  const daemonId = await until(
    async () => {
      const listed = (await api('GET', '/api/daemons')).body as { daemons?: Array<{ id: string }> };
      return listed.daemons?.[0]?.id;
    },
    { description: 'the victim daemon’s enrollment' },
  );
  const runtimeId = `${daemonId}-claude-code`;
  await until(async () => ((await api('GET', `/api/runtimes/${runtimeId}`)).body as { status?: string } | undefined)?.status === 'online', {
    description: `runtime ${runtimeId} online`,
    timeoutMs: 60_000,
  });
  return { daemonId, runtimeId, credentialsFile: path.join(system.home, 'identity', 'daemon.creds'), child };
}

async function healthOf(name: string, child: ServiceChild): Promise<ProcessHealth> {
  const status = (route: string): Promise<number | string> =>
    fetch(new URL(route, child.url), { signal: AbortSignal.timeout(5_000) }).then(
      (response) => response.status,
      (error: unknown) => String(error),
    );
  return { name, alive: isAlive(child.pid), healthz: await status('/healthz'), readyz: await status('/readyz') };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
