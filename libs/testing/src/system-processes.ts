import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectMessaging, deleteNamespaceStreams, type MessagingConnection } from '@switchyard/messaging';
import { runMigrations } from '@switchyard/persistence';
import { startMockModelServer, type MockModelServer } from './mock-model';
import { serviceChildEnvironment, startServiceChild, workspaceRoot, type ServiceChild } from './service-child.process';
import { createTestDatabase, type TestDatabase } from './test-database';
import { testNatsUrl, uniqueNamespace } from './test-environment';

export const SYSTEM_SERVICES = ['queue', 'session-resume', 'transcript', 'gateway'] as const;
export type SystemService = (typeof SYSTEM_SERVICES)[number];

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
  /** A daemon whose PATH starts with the pinned real agent CLIs (tests/agent-clis). */
  startDaemon(options: { readonly daemonId: string; readonly env?: Readonly<Record<string, string>> }): Promise<ServiceChild>;
  /** Stops every process, then removes the streams, the database, the mock and the home. */
  stop(): Promise<void>;
}

/**
 * Builds dist/ and starts the chosen services (in the given order) as processes, as in production:
 * what end-to-end tests stand on. Tests never import a service; they talk to these over NATS/HTTP.
 */
export async function startSystemProcesses(options: { readonly services: readonly SystemService[]; readonly gatewayToken?: string }): Promise<SystemProcesses> {
  const root = workspaceRoot();
  execFileSync(process.execPath, [path.join(root, 'tools/build/build.mjs')], { stdio: 'ignore' });
  const namespace = uniqueNamespace();
  const database: TestDatabase = await createTestDatabase();
  await runMigrations({ url: database.url });
  const model = await startMockModelServer({});
  const home = await mkdtemp(path.join(tmpdir(), 'switchyard-system-'));
  const common = serviceChildEnvironment({ natsUrl: testNatsUrl(), namespace });
  const children: ServiceChild[] = [];
  const start = async (entry: string, env: Record<string, string>): Promise<ServiceChild> => {
    const child = await startServiceChild({ entry, env: { ...common, ...env }, timeoutMs: 60_000 });
    children.push(child);
    return child;
  };
  const settings: Record<SystemService, Record<string, string>> = {
    queue: { DATABASE_URL: database.url, QUEUE_TASK_TOKEN_SECRET: 'system-test-secret-system-test-secret' },
    'session-resume': { DATABASE_URL: database.url },
    transcript: { DATABASE_URL: database.url },
    gateway: { DATABASE_URL: database.url, ...(options.gatewayToken ? { GATEWAY_BOOTSTRAP_TOKEN: options.gatewayToken } : {}) },
  };
  let gatewayUrl = '';
  for (const service of options.services) {
    const child = await start(`services/${service}/src/main.js`, settings[service]);
    if (service === 'gateway') gatewayUrl = child.url;
  }
  const connection = await connectMessaging({ url: testNatsUrl(), name: 'system-test-observer', namespace });
  return {
    namespace,
    databaseUrl: database.url,
    model,
    home,
    gatewayUrl,
    connection,
    startDaemon: ({ daemonId, env }) =>
      start('services/daemon/src/main.js', {
        DAEMON_ID: daemonId,
        SWITCHYARD_HOME: home,
        DAEMON_PATH: `${path.join(root, 'tests/agent-clis/node_modules/.bin')}${path.delimiter}${process.env['PATH'] ?? ''}`,
        ...env,
      }),
    async stop() {
      for (const child of children.reverse()) await child.stop();
      await deleteNamespaceStreams(connection);
      await connection.close();
      await model.stop();
      await database.drop();
      await rm(home, { recursive: true, force: true });
    },
  };
}
