import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { connectMessagingTransport } from '@switchyard/messaging';
import { readTelemetrySettings, startTelemetry, type TelemetrySettings } from '@switchyard/telemetry';
import { createJsonLogger, NestJsonLogger, type JsonLogger } from '../logging/json-logger';
import { ConfigValidationError } from '../config/config-validation.error';
import { redactConfig } from '../config/redact-config';
import { installProcessGuards } from './process-guards';
import { MetricsEndpoint } from '../metrics/metrics.module';

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
  /** Adjusts the application before it listens (OpenAPI document, WebSocket upgrade, ...). */
  readonly configureApp?: (app: INestApplication, config: Config) => void | Promise<void>;
}

export interface RunningService {
  readonly app: INestApplication;
  readonly url: string;
  /** Where `GET /metrics` answers, when METRICS_PORT is set. */
  readonly metricsUrl: string | undefined;
  readonly logger: JsonLogger;
}

/** Exit code for bad configuration (EX_CONFIG), so supervisors can tell it from a crash. */
export const CONFIG_INVALID_EXIT_CODE = 78;

/**
 * Creates, starts and announces one service: JSON logs, graceful shutdown on SIGTERM/SIGINT, the
 * messaging transport (its `@EventPattern` / `@MessagePattern` handlers start once every
 * lifecycle hook has run), then the HTTP listener. Every service is a hybrid application: HTTP
 * for health (and the gateway's API), the transport for the bus; one without handlers starts none.
 * Throws on failure; `bootstrapService` turns that into an exit code.
 */
export async function startService<Config extends ServiceBaseConfig>(options: {
  readonly service: string;
  readonly config: Config;
  readonly createModule: (config: Config, logger: JsonLogger) => unknown;
  readonly configureApp?: (app: INestApplication, config: Config) => void | Promise<void>;
  readonly logger?: JsonLogger;
}): Promise<RunningService> {
  const logger = options.logger ?? createJsonLogger({ service: options.service, level: options.config.LOG_LEVEL });
  logger.info({ event: 'service_config', config: redactConfig(options.config as unknown as Record<string, unknown>) }, 'configuration loaded');
  const app = await NestFactory.create(options.createModule(options.config, logger) as never, {
    logger: new NestJsonLogger(logger),
    abortOnError: false,
  });
  try {
    app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
    connectMessagingTransport(app);
    await options.configureApp?.(app, options.config);
    await app.init();
    await app.startAllMicroservices();
    await app.listen(options.config.PORT, options.config.HOST);
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const metricsUrl = metricsUrlOf(app);
  logger.info({ event: 'service_listening', url, ...(metricsUrl ? { metricsUrl } : {}) }, `${options.service} listening on ${url}`);
  return { app, url, metricsUrl, logger };
}

/** The metrics listener's address; a module built without the platform has none. */
function metricsUrlOf(app: INestApplication): string | undefined {
  try {
    return app.get(MetricsEndpoint, { strict: false }).url;
  } catch {
    return undefined;
  }
}

/**
 * A service's `main`: validated config (its own keys and the `OTEL_*` ones, every bad key listed
 * at once), the process guards (see `installProcessGuards`), the trace SDK when an OTLP endpoint
 * is configured (before Nest, so every span has a provider; flushed at shutdown, see
 * `TelemetryShutdown`), then `startService`; exits with a clear message on failure.
 */
export async function bootstrapService<Config extends ServiceBaseConfig>(
  options: BootstrapServiceOptions<Config>,
): Promise<RunningService> {
  let config: Config;
  let telemetry: TelemetrySettings;
  try {
    ({ config, telemetry } = loadServiceConfig(options));
  } catch (error) {
    const bootLogger = createJsonLogger({ service: options.service, level: 'info' });
    if (error instanceof ConfigValidationError) {
      bootLogger.fatal({ event: 'config_invalid', code: error.code, problems: error.problems }, error.message);
    } else {
      bootLogger.fatal({ event: 'config_invalid', err: error }, 'configuration could not be loaded');
    }
    await flushed(bootLogger);
    process.exit(CONFIG_INVALID_EXIT_CODE);
  }
  const logger = createJsonLogger({ service: options.service, level: config.LOG_LEVEL });
  // Before anything starts: a stray rejection during boot is logged too, not a silent crash.
  installProcessGuards(logger);
  try {
    await startTelemetry({ settings: telemetry, logger: logger.child({ component: 'telemetry' }) });
    return await startService({ service: options.service, config, createModule: options.createModule, ...(options.configureApp ? { configureApp: options.configureApp } : {}), logger });
  } catch (error) {
    logger.fatal({ event: 'service_boot_failed', err: error }, `${options.service} failed to start`);
    await flushed(logger);
    process.exit(1);
  }
}

/** The service's configuration and the trace settings, or one error listing the bad keys of both. */
function loadServiceConfig<Config extends ServiceBaseConfig>(options: BootstrapServiceOptions<Config>): { config: Config; telemetry: TelemetrySettings } {
  const { settings, problems } = readTelemetrySettings(process.env, options.service);
  let config: Config;
  try {
    config = options.loadConfig();
  } catch (error) {
    if (error instanceof ConfigValidationError && problems.length > 0) throw new ConfigValidationError(error.service, [...error.problems, ...problems]);
    throw error;
  }
  if (problems.length > 0) throw new ConfigValidationError(options.service, problems);
  return { config, telemetry: settings };
}

/** Log lines are written asynchronously; the reason for an exit must reach the output first. */
function flushed(logger: JsonLogger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
