import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { createJsonLogger, NestJsonLogger, type JsonLogger } from '../logging/json-logger';
import { ConfigValidationError } from '../config/config-validation.error';
import { redactConfig } from '../config/redact-config';

export interface ServiceBaseConfig {
  readonly PORT: number;
  readonly HOST: string;
  readonly LOG_LEVEL: string;
}

export interface BootstrapServiceOptions<Config extends ServiceBaseConfig> {
  readonly service: string;
  /** Parses and validates configuration; throws ConfigValidationError listing every bad key. */
  readonly loadConfig: () => Config;
  /** Builds the root module from the validated configuration. */
  readonly createModule: (config: Config, logger: JsonLogger) => unknown;
}

export interface RunningService {
  readonly app: INestApplication;
  readonly url: string;
  readonly logger: JsonLogger;
}

/**
 * Boots one service: validated config, JSON logs, graceful shutdown on SIGTERM/SIGINT, HTTP listener.
 * Exits the process with a clear message when configuration or boot fails.
 */
export async function bootstrapService<Config extends ServiceBaseConfig>(
  options: BootstrapServiceOptions<Config>,
): Promise<RunningService> {
  let config: Config;
  try {
    config = options.loadConfig();
  } catch (error) {
    const bootLogger = createJsonLogger({ service: options.service, level: 'info' });
    if (error instanceof ConfigValidationError) {
      bootLogger.fatal({ event: 'config_invalid', code: error.code, problems: error.problems }, error.message);
    } else {
      bootLogger.fatal({ event: 'config_invalid', err: error }, 'configuration could not be loaded');
    }
    bootLogger.flush();
    process.exit(78);
  }

  const logger = createJsonLogger({ service: options.service, level: config.LOG_LEVEL });
  logger.info({ event: 'service_config', config: redactConfig(config as unknown as Record<string, unknown>) }, 'configuration loaded');
  try {
    const app = await NestFactory.create(options.createModule(config, logger) as never, {
      logger: new NestJsonLogger(logger),
      bufferLogs: false,
      abortOnError: false,
    });
    app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
    await app.listen(config.PORT, config.HOST);
    const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    logger.info({ event: 'service_listening', url }, `${options.service} listening on ${url}`);
    return { app, url, logger };
  } catch (error) {
    logger.fatal({ event: 'service_boot_failed', err: error }, `${options.service} failed to start`);
    logger.flush();
    process.exit(1);
  }
}
