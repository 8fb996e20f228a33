import 'reflect-metadata';
import { catalogStreamDefinitions, connectMessaging, provisionStreams } from '@switchyard/messaging';
import { createDataSource } from '@switchyard/persistence';
import { CONFIG_INVALID_EXIT_CODE, ConfigValidationError, createJsonLogger } from '@switchyard/service-kit';
import { projectorSettings } from './projector/projector-settings';
import { RebuildRefusedError, rebuildTimeline } from './rebuild/timeline.rebuild';
import { transcriptApp } from './transcript.app';

/**
 * `npm run transcript:rebuild` (same environment as the transcript service: NATS_URL,
 * DATABASE_URL, SWITCHYARD_NAMESPACE). Stop the transcript service first; the command refuses
 * while a projector runs. Exit 0 when rebuilt, 1 on failure, 3 when refused, 78 on bad config.
 */
async function main(): Promise<void> {
  const logger = createJsonLogger({ service: 'transcript-rebuild', level: process.env['LOG_LEVEL'] ?? 'info' });
  let config: ReturnType<typeof transcriptApp.loadConfig>;
  try {
    config = transcriptApp.loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigValidationError) logger.fatal({ event: 'config_invalid', problems: error.problems }, error.message);
    else logger.fatal({ event: 'config_invalid', err: error }, 'configuration could not be loaded');
    return exit(logger, CONFIG_INVALID_EXIT_CODE);
  }
  const connection = await connectMessaging({
    url: config.NATS_URL.split(','),
    name: 'transcript-rebuild',
    namespace: config.SWITCHYARD_NAMESPACE,
    logger: logger.child({ component: 'messaging' }),
  });
  const dataSource = createDataSource({ url: config.DATABASE_URL, applicationName: 'transcript-rebuild', poolSize: 4 });
  let code = 0;
  try {
    await provisionStreams(connection, catalogStreamDefinitions());
    await dataSource.initialize();
    await rebuildTimeline({ connection, dataSource, logger, ...projectorSettings(config) });
  } catch (error) {
    code = error instanceof RebuildRefusedError ? 3 : 1;
    // The message only: the configuration (database password) is never logged.
    logger.error({ event: 'timeline_rebuild_failed', message: error instanceof Error ? error.message : String(error) }, 'timeline rebuild failed');
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await connection.close();
  }
  return exit(logger, code);
}

function exit(logger: ReturnType<typeof createJsonLogger>, code: number): Promise<void> {
  return new Promise((resolve) =>
    logger.flush(() => {
      process.exitCode = code;
      resolve();
    }),
  );
}

void main();
