import {
  catalogKeyValueDefinitions,
  catalogObjectStoreDefinitions,
  catalogStreamDefinitions,
  provisionKeyValueBuckets,
  provisionObjectStores,
  provisionStreams,
  type BusIdentity,
} from '@switchyard/messaging';
import { deleteNamespaceStreams } from '@switchyard/messaging/testing';
import { runMigrations } from '@switchyard/persistence';
import { ConfigValidationError, createJsonLogger, startService, type PlatformConfig, type ServiceBaseConfig, type ServiceDefinition } from '@switchyard/service-kit';
import { createTestDatabase } from './test-database';
import { TEST_CONNECT_TIMEOUT_MS, connectTestMessaging, testCredentialsFile } from './test-bus';
import { testNatsUrl, uniqueNamespace } from './test-environment';

export interface ServiceUnderTest {
  readonly url: string;
  /** `GET /metrics`, when the environment set METRICS_PORT (`'0'`: a free port). */
  readonly metricsUrl: string | undefined;
  readonly namespace: string;
  /** The service's database, when it has one. */
  readonly databaseUrl: string | undefined;
  stop(): Promise<void>;
}

export interface StartServiceForTestOptions {
  readonly database: boolean;
  /** Run as another replica of an instance already started: same namespace and database. */
  readonly replicaOf?: ServiceUnderTest;
  /** Extra environment, e.g. shorter timings. */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Boots a service's real root module in this process, on the test NATS (own namespace) and, when
 * it keeps state, its own migrated database. `stop` closes it and removes what it created.
 */
export async function startServiceForTest<Config extends ServiceBaseConfig & PlatformConfig>(
  definition: ServiceDefinition<Config>,
  options: StartServiceForTestOptions,
): Promise<ServiceUnderTest> {
  if (options.replicaOf) return startReplica(definition, options.replicaOf, options.env);
  const namespace = uniqueNamespace();
  const database = options.database ? await createTestDatabase() : undefined;
  const cleanup = async (): Promise<void> => {
    await database?.drop();
    const connection = await connectTestMessaging({ name: `${definition.service}-test-cleanup`, namespace });
    await deleteNamespaceStreams(connection);
    await connection.close();
  };
  try {
    if (database) await runMigrations({ url: database.url });
    const running = await bootInProcess(definition, { namespace, databaseUrl: database?.url, env: options.env });
    return {
      url: running.url,
      metricsUrl: running.metricsUrl,
      namespace,
      databaseUrl: database?.url,
      stop: async () => {
        await running.app.close();
        await cleanup();
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

async function startReplica<Config extends ServiceBaseConfig & PlatformConfig>(
  definition: ServiceDefinition<Config>,
  first: ServiceUnderTest,
  env: NodeJS.ProcessEnv | undefined,
): Promise<ServiceUnderTest> {
  const running = await bootInProcess(definition, { namespace: first.namespace, databaseUrl: first.databaseUrl, env });
  // The first instance owns the namespace and database and removes them.
  return { url: running.url, metricsUrl: running.metricsUrl, namespace: first.namespace, databaseUrl: first.databaseUrl, stop: () => running.app.close() };
}

async function bootInProcess<Config extends ServiceBaseConfig & PlatformConfig>(
  definition: ServiceDefinition<Config>,
  options: { readonly namespace: string; readonly databaseUrl: string | undefined; readonly env: NodeJS.ProcessEnv | undefined },
) {
  const env: NodeJS.ProcessEnv = {
    NATS_URL: testNatsUrl(),
    NATS_CONNECT_TIMEOUT_MS: String(TEST_CONNECT_TIMEOUT_MS),
    SWITCHYARD_NAMESPACE: options.namespace,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  };
  // The service connects as itself, with its own grant: a subject it was not granted fails here too.
  const identity = definition.busIdentity(definition.loadConfig(env));
  await provisionForPublishOnly(identity, options.namespace);
  const credentialsFile = env['NATS_CREDENTIALS_FILE'] ?? (await testCredentialsFile(identity, options.namespace));
  const config = definition.loadConfig({ ...env, NATS_CREDENTIALS_FILE: credentialsFile });
  return startService({
    service: definition.service,
    config,
    createModule: (validated, logger) => definition.createModule(validated, logger),
    ...(definition.configureApp ? { configureApp: definition.configureApp } : {}),
    logger: createJsonLogger({ service: definition.service, level: 'warn' }),
  });
}

/**
 * A daemon may only publish to streams; in a deployment the services have provisioned them. Alone
 * under test, the streams are provisioned for it here, as an operator's tool would.
 */
async function provisionForPublishOnly(identity: BusIdentity, namespace: string): Promise<void> {
  if (identity.kind !== 'daemon') return;
  const connection = await connectTestMessaging({ name: `${identity.daemonId}-test-provisioning`, namespace });
  try {
    await provisionStreams(connection, catalogStreamDefinitions());
    await provisionObjectStores(connection, catalogObjectStoreDefinitions());
    await provisionKeyValueBuckets(connection, catalogKeyValueDefinitions());
  } finally {
    await connection.close();
  }
}

/** The keys a definition rejects in an environment, or an empty list when it accepts it. */
export function rejectedConfigKeys<Config extends ServiceBaseConfig & PlatformConfig>(
  definition: ServiceDefinition<Config>,
  env: NodeJS.ProcessEnv,
): string[] {
  try {
    definition.loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigValidationError) return error.problems.map((problem) => problem.key).sort();
    throw error;
  }
}
