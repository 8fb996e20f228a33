import { Injectable, Module, type DynamicModule, type InjectionToken, type OnApplicationShutdown, type Type } from '@nestjs/common';
import {
  catalogKeyValueDefinitions,
  catalogObjectStoreDefinitions,
  catalogStreamDefinitions,
  checkNatsReady,
  inboxPrefixOf,
  MESSAGING_CONNECTION,
  MessagingModule,
  type BusIdentity,
  type EventConsumerTable,
  type MessagingConnection,
} from '@switchyard/messaging';
import { shutdownTelemetry } from '@switchyard/telemetry';
import { HealthModule } from '../health/health.module';
import type { ReadinessCheck } from '../health/readiness-check';
import type { JsonLogger } from '../logging/json-logger';
import { MetricsModule } from '../metrics/metrics.module';

/**
 * Something a process stands on besides NATS (the database): its module, and the readiness check
 * `/readyz` runs against what the module provides. Built by the lib that owns it, so this kit
 * (and every process, the daemon on a laptop first) never loads a database driver it does not use.
 */
export interface PlatformExtension {
  readonly module: DynamicModule;
  readonly readiness: {
    readonly name: string;
    readonly inject: InjectionToken;
    readonly check: (provided: never) => Promise<void>;
  };
}

export interface PlatformModuleOptions {
  readonly service: string;
  readonly natsUrl: string;
  readonly namespace?: string | undefined;
  /** Who the process is on the bus: its grant decides what it may publish and read. */
  readonly identity: BusIdentity;
  /** The identity's NATS `.creds` file; without one the server must be open (tests of the lib). */
  readonly credentialsFile?: string | undefined;
  /** How long the first connection may take to open; the messaging default (10 s) when absent. */
  readonly connectTimeoutMs?: number | undefined;
  readonly extensions: readonly PlatformExtension[];
  /** Consumer options of `@EventPattern` handlers that come from configuration. */
  readonly eventConsumers?: EventConsumerTable;
  /** Where `GET /metrics` listens; no port: metrics off. */
  readonly metrics: { readonly host: string; readonly port: number | undefined };
  readonly logger: JsonLogger;
}

/**
 * What every Switchyard process stands on: one NATS connection with the catalog's streams
 * provisioned, its extensions (the database, for services that keep state), health endpoints
 * that check them all, and its metrics (served when METRICS_PORT is set).
 */
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformModuleOptions): DynamicModule {
    // A daemon only publishes to streams: services provision them, and it may not use the API.
    const publishOnly = options.identity.kind === 'daemon';
    const messaging = MessagingModule.forRoot({
      url: options.natsUrl.split(','),
      name: options.service,
      namespace: options.namespace,
      logger: options.logger.child({ component: 'messaging' }),
      inboxPrefix: inboxPrefixOf(options.identity),
      // Refused for good (a revoked daemon): nothing this process does can work any more, so it
      // ends with the reason instead of running on without a bus.
      onClosedByServer: (error) => {
        options.logger.fatal({ event: 'bus_access_lost', err: error }, `${options.service}: NATS refused this process's user (${error.message}); stopping`);
        options.logger.flush(() => process.exit(1));
      },
      ...(options.credentialsFile ? { credentialsFile: options.credentialsFile } : {}),
      ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
      ...(publishOnly ? { jetStreamAccess: 'publish' as const } : { streams: catalogStreamDefinitions(), objectStores: catalogObjectStoreDefinitions(), keyValueBuckets: catalogKeyValueDefinitions() }),
      ...(options.eventConsumers ? { eventConsumers: options.eventConsumers } : {}),
    });
    const health = HealthModule.forRoot({
      inject: [MESSAGING_CONNECTION, ...options.extensions.map((extension) => extension.readiness.inject)],
      useFactory: (connection: MessagingConnection, ...provided: unknown[]): ReadinessCheck[] => [
        { name: 'nats', check: () => checkNatsReady(connection) },
        ...options.extensions.map((extension, index) => ({ name: extension.readiness.name, check: () => extension.readiness.check(provided[index] as never) })),
      ],
    });
    const metrics = MetricsModule.forRoot({ service: options.service, host: options.metrics.host, port: options.metrics.port, logger: options.logger });
    return { module: PlatformModule, imports: [metrics, messaging, ...options.extensions.map((extension) => extension.module), health] };
  }
}

/** The configuration keys the platform reads. */
export interface PlatformConfig {
  readonly NATS_URL: string;
  readonly NATS_CREDENTIALS_FILE?: string | undefined;
  readonly NATS_CONNECT_TIMEOUT_MS?: number | undefined;
  readonly SWITCHYARD_NAMESPACE?: string | undefined;
  readonly HOST: string;
  readonly METRICS_PORT?: number | undefined;
}

/**
 * Exports the spans still buffered when the application shuts down, after every
 * `beforeApplicationShutdown` hook has stopped the work (consumers, runs, the relay) that makes
 * them; Nest ends the process right after the hooks. No-op when tracing is off.
 */
@Injectable()
export class TelemetryShutdown implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return shutdownTelemetry();
  }
}

/** The root of every service process: the platform, then the service's own feature module. */
@Module({ providers: [TelemetryShutdown] })
export class ServiceRootModule {}

/** A service's root module: its own feature module on top of the platform. */
export function serviceRootModule(options: {
  readonly service: string;
  readonly feature: Type | DynamicModule;
  readonly config: PlatformConfig;
  readonly identity: BusIdentity;
  readonly extensions: readonly PlatformExtension[];
  readonly eventConsumers?: EventConsumerTable;
  readonly logger: JsonLogger;
}): DynamicModule {
  return {
    module: ServiceRootModule,
    imports: [
      PlatformModule.forRoot({
        service: options.service,
        natsUrl: options.config.NATS_URL,
        namespace: options.config.SWITCHYARD_NAMESPACE,
        identity: options.identity,
        credentialsFile: options.config.NATS_CREDENTIALS_FILE,
        connectTimeoutMs: options.config.NATS_CONNECT_TIMEOUT_MS,
        extensions: options.extensions,
        ...(options.eventConsumers ? { eventConsumers: options.eventConsumers } : {}),
        metrics: { host: options.config.HOST, port: options.config.METRICS_PORT },
        logger: options.logger,
      }),
      options.feature,
    ],
  };
}
