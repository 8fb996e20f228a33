import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectMessaging, type MessagingConnection } from '@switchyard/messaging';
import { testCredentialsFile, testMessagingOptions } from './test-bus';
import { deleteNamespaceStreams } from '@switchyard/messaging/testing';
import { generateSecretKey, runMigrations } from '@switchyard/persistence';
import { startMockModelServer, type MockModelServer } from './mock-model';
import { serviceChildEnvironment, startServiceChild, workspaceRoot, type ServiceChild } from './service-child.process';
import { createTestDatabase } from './test-database';
import { testNatsUrl, uniqueNamespace } from './test-environment';

export const SYSTEM_SERVICES = ['queue', 'session-resume', 'transcript', 'gateway'] as const;
export type SystemService = (typeof SYSTEM_SERVICES)[number];

export interface SystemProcessesOptions {
  readonly services: readonly SystemService[];
  readonly gatewayToken?: string;
  /** The NATS every process connects to (comma-separated for a cluster); default: the test run's (`testNatsUrl()`). */
  readonly natsUrl?: string;
  /**
   * The database the services use, migrated here and left in place at `stop` (its owner drops it),
   * e.g. a fresh test database reached through a fault proxy. Default: a fresh test database,
   * dropped at `stop`.
   */
  readonly databaseUrl?: string;
  /** Extra environment per service (timings, batch sizes), over the defaults. */
  readonly serviceEnv?: Partial<Readonly<Record<SystemService, Readonly<Record<string, string>>>>>;
}

/** Switchyard as separate built processes on the test's NATS namespace and a fresh migrated database. */
export interface SystemProcesses {
  readonly namespace: string;
  readonly databaseUrl: string;
  readonly model: MockModelServer;
  /** A throwaway SWITCHYARD_HOME for daemons. */
  readonly home: string;
  /** Set when the gateway was started. */
  readonly gatewayUrl: string;
  /** A NATS connection in the system's namespace, for observing and commanding. */
  readonly connection: MessagingConnection;
  /**
   * A daemon whose PATH starts with the pinned real agent CLIs (tests/agent-clis). With a
   * `daemonId` it gets that id and a user minted for it; without, it must enroll (its env says how).
   */
  startDaemon(options: { readonly daemonId?: string; readonly env?: Readonly<Record<string, string>> }): Promise<ServiceChild>;
  /** The latest process started for the service (the one `startService` replaced, once it did). */
  service(name: SystemService): ServiceChild;
  /** Starts the service again with the same environment, e.g. after killing it; it becomes `service(name)`. */
  startService(name: SystemService): Promise<ServiceChild>;
  /** Stops every process, then removes the streams, the database, the mock and the home. */
  stop(): Promise<void>;
}

/**
 * Builds dist/ and starts the chosen services (in the given order) as processes, as in production:
 * what end-to-end tests stand on. Tests never import a service; they talk to these over NATS/HTTP.
 * When a service fails to start, everything started so far is stopped and removed.
 */
export async function startSystemProcesses(options: SystemProcessesOptions): Promise<SystemProcesses> {
  const root = workspaceRoot();
  execFileSync(process.execPath, [path.join(root, 'tools/build/build.mjs')], { stdio: 'ignore' });
  const natsUrl = options.natsUrl ?? testNatsUrl();
  const namespace = uniqueNamespace();
  const children: ServiceChild[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];
  let stopping: Promise<void> | undefined;
  const stopAll = (): Promise<void> =>
    (stopping ??= (async () => {
      for (const child of [...children].reverse()) await child.stop();
      for (const cleanup of [...cleanups].reverse()) await cleanup();
    })());
  try {
    let databaseUrl = options.databaseUrl;
    if (!databaseUrl) {
      const database = await createTestDatabase();
      cleanups.push(() => database.drop());
      databaseUrl = database.url;
    }
    await runMigrations({ url: databaseUrl });
    const model = await startMockModelServer({});
    cleanups.push(() => model.stop());
    const home = await mkdtemp(path.join(tmpdir(), 'switchyard-system-'));
    cleanups.push(() => rm(home, { recursive: true, force: true }));
    const common = serviceChildEnvironment({ natsUrl, namespace });
    const start = async (entry: string, env: Readonly<Record<string, string>>): Promise<ServiceChild> => {
      const child = await startServiceChild({ entry, env: { ...common, ...env }, timeoutMs: 60_000 });
      children.push(child);
      return child;
    };
    // Keys for the whole system's life: a restarted queue or gateway opens what it sealed before.
    const settings: Record<SystemService, Record<string, string>> = {
      queue: {
        DATABASE_URL: databaseUrl,
        QUEUE_TASK_TOKEN_SECRET: 'system-test-secret-system-test-secret',
        QUEUE_SECRET_KEYS: generateSecretKey(),
        // Retries wait out a short backoff: deferred, yet claimed within a sweep.
        QUEUE_RETRY_BACKOFF_BASE_MS: '200',
        QUEUE_RETRY_BACKOFF_MAX_MS: '2000',
      },
      'session-resume': { DATABASE_URL: databaseUrl },
      transcript: { DATABASE_URL: databaseUrl },
      gateway: { DATABASE_URL: databaseUrl, GATEWAY_SECRET_KEYS: generateSecretKey(), ...(options.gatewayToken ? { GATEWAY_BOOTSTRAP_TOKEN: options.gatewayToken } : {}) },
    };
    const latest = new Map<SystemService, ServiceChild>();
    const startService = async (service: SystemService): Promise<ServiceChild> => {
      const credentials = await testCredentialsFile({ kind: 'service', name: service }, namespace);
      const child = await start(`services/${service}/src/main.js`, { NATS_CREDENTIALS_FILE: credentials, ...settings[service], ...options.serviceEnv?.[service] });
      latest.set(service, child);
      return child;
    };
    for (const service of options.services) await startService(service);
    const connection = await connectMessaging({ ...(await testMessagingOptions({ name: 'system-test-observer', namespace })), url: natsUrl.split(',') });
    // Undone first (cleanups run last to first): the streams, then the observer's connection.
    cleanups.push(() => connection.close(), () => deleteNamespaceStreams(connection));
    return {
      namespace,
      databaseUrl,
      model,
      home,
      gatewayUrl: latest.get('gateway')?.url ?? '',
      connection,
      startDaemon: async ({ daemonId, env }) =>
        start('services/daemon/src/main.js', {
          ...(daemonId === undefined ? {} : { DAEMON_ID: daemonId, NATS_CREDENTIALS_FILE: await testCredentialsFile({ kind: 'daemon', daemonId, workspaceId: env?.['DAEMON_WORKSPACE_ID'] ?? 'default' }, namespace) }),
          SWITCHYARD_HOME: home,
          DAEMON_PATH: `${path.join(root, 'tests/agent-clis/node_modules/.bin')}${path.delimiter}${process.env['PATH'] ?? ''}`,
          // Agents call back to the gateway of this system (SWITCHYARD_API_URL), when one runs.
          ...(latest.get('gateway') ? { DAEMON_GATEWAY_URL: latest.get('gateway')!.url } : {}),
          ...env,
        }),
      service(name) {
        const child = latest.get(name);
        if (!child) throw new Error(`${name} was not started`);
        return child;
      },
      startService,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
