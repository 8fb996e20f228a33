import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { SERVICE_IDENTITIES, type BusIdentity, type EventConsumerTable, type ServiceIdentityName } from '@switchyard/messaging';
import type { z } from 'zod';
import { loadConfig } from '../config/load-config';
import type { JsonLogger } from '../logging/json-logger';
import type { ServiceBaseConfig } from './bootstrap-service';
import { serviceRootModule, type PlatformConfig, type PlatformExtension } from './platform.module';

export interface ServiceDefinition<Config extends ServiceBaseConfig & PlatformConfig> {
  readonly service: string;
  /** Validates an environment (process.env by default); throws ConfigValidationError. */
  loadConfig(env?: NodeJS.ProcessEnv): Config;
  createModule(config: Config, logger: JsonLogger): DynamicModule;
  /** Who the process is on the bus, given its configuration. */
  busIdentity(config: Config): BusIdentity;
  /** Adjusts the application before it listens (OpenAPI document, WebSocket upgrade, ...). */
  readonly configureApp?: (app: INestApplication, config: Config) => void | Promise<void>;
}

/**
 * Everything needed to boot one service, kept apart from its `main.ts` so tests can boot the
 * very same module without starting a process.
 */
export function defineService<Schema extends z.ZodObject>(options: {
  readonly service: string;
  readonly configSchema: Schema;
  /** The service's own module, built from its validated configuration. */
  readonly feature: (config: z.infer<Schema>, logger: JsonLogger) => Type | DynamicModule;
  /** What the process stands on besides NATS, e.g. `databasePlatform(...)` of `@switchyard/persistence`. */
  readonly platform?: (config: z.infer<Schema>) => readonly PlatformExtension[];
  /** Consumer options of `@EventPattern` handlers that come from configuration, by pattern. */
  readonly eventConsumers?: (config: z.infer<Schema>) => EventConsumerTable;
  readonly configureApp?: (app: INestApplication, config: z.infer<Schema>) => void | Promise<void>;
  /** Who the process is on the bus; a service's own name by default. */
  readonly busIdentity?: (config: z.infer<Schema>) => BusIdentity;
}): ServiceDefinition<z.infer<Schema> & ServiceBaseConfig & PlatformConfig> {
  type Config = z.infer<Schema> & ServiceBaseConfig & PlatformConfig;
  return {
    service: options.service,
    loadConfig: (env = process.env) => loadConfig({ service: options.service, schema: options.configSchema, env }) as Config,
    busIdentity: (config) => options.busIdentity?.(config) ?? serviceIdentity(options.service),
    createModule: (config, logger) =>
      serviceRootModule({
        service: options.service,
        feature: options.feature(config, logger),
        config,
        identity: options.busIdentity?.(config) ?? serviceIdentity(options.service),
        extensions: options.platform?.(config) ?? [],
        ...(options.eventConsumers ? { eventConsumers: options.eventConsumers(config) } : {}),
        logger,
      }),
    ...(options.configureApp ? { configureApp: options.configureApp as (app: INestApplication, config: Config) => void | Promise<void> } : {}),
  };
}


function serviceIdentity(service: string): BusIdentity {
  if (!(SERVICE_IDENTITIES as readonly string[]).includes(service)) {
    throw new Error(`${service} is not a bus identity: give defineService a busIdentity`);
  }
  return { kind: 'service', name: service as ServiceIdentityName };
}
