import { connectMessaging, deleteNamespaceStreams } from '@switchyard/messaging';
import { runMigrations } from '@switchyard/persistence';
import { ConfigValidationError, createJsonLogger, startService, type PlatformConfig, type ServiceBaseConfig, type ServiceDefinition } from '@switchyard/service-kit';
import { createTestDatabase } from './test-database';
import { testNatsUrl, uniqueNamespace } from './test-environment';

export interface ServiceUnderTest {
  readonly url: string;
  readonly namespace: string;
  stop(): Promise<void>;
}

/**
 * Boots a service's real root module in this process, on the test NATS (own namespace) and, when
 * it keeps state, its own migrated database. `stop` closes it and removes what it created.
 */
export async function startServiceForTest<Config extends ServiceBaseConfig & PlatformConfig>(
  definition: ServiceDefinition<Config>,
  options: { readonly database: boolean },
): Promise<ServiceUnderTest> {
  const namespace = uniqueNamespace();
  const database = options.database ? await createTestDatabase() : undefined;
  const cleanup = async (): Promise<void> => {
    await database?.drop();
    const connection = await connectMessaging({ url: testNatsUrl(), name: `${definition.service}-test-cleanup`, namespace });
    await deleteNamespaceStreams(connection);
    await connection.close();
  };
  try {
    if (database) await runMigrations({ url: database.url });
    const config = definition.loadConfig({
      NATS_URL: testNatsUrl(),
      SWITCHYARD_NAMESPACE: namespace,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...(database ? { DATABASE_URL: database.url } : {}),
    });
    const running = await startService({
      service: definition.service,
      config,
      createModule: (validated, logger) => definition.createModule(validated, logger),
      logger: createJsonLogger({ service: definition.service, level: 'warn' }),
    });
    return {
      url: running.url,
      namespace,
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
