import { Module, type DynamicModule, type Type } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { catalogStreamDefinitions, checkNatsReady, MESSAGING_CONNECTION, MessagingModule, type MessagingConnection } from '@switchyard/messaging';
import { checkDatabaseReady, DATA_SOURCE, PersistenceModule } from '@switchyard/persistence';
import { HealthModule } from '../health/health.module';
import type { ReadinessCheck } from '../health/readiness-check';
import type { JsonLogger } from '../logging/json-logger';

export interface PlatformModuleOptions {
  readonly service: string;
  readonly natsUrl: string;
  readonly namespace?: string | undefined;
  /** Absent for processes without a database (the daemon). */
  readonly databaseUrl?: string | undefined;
  readonly logger: JsonLogger;
}

/**
 * What every Switchyard process stands on: one NATS connection with the catalog's streams
 * provisioned, the database when it has one, and health endpoints that check both.
 */
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformModuleOptions): DynamicModule {
    const messaging = MessagingModule.forRoot({
      url: options.natsUrl.split(','),
      name: options.service,
      namespace: options.namespace,
      logger: options.logger.child({ component: 'messaging' }),
      streams: catalogStreamDefinitions(),
    });
    const persistence = options.databaseUrl
      ? [PersistenceModule.forRoot({ url: options.databaseUrl, applicationName: options.service })]
      : [];
    const health = HealthModule.forRoot({
      inject: options.databaseUrl ? [MESSAGING_CONNECTION, DATA_SOURCE] : [MESSAGING_CONNECTION],
      useFactory: (connection: MessagingConnection, dataSource?: DataSource): ReadinessCheck[] => [
        { name: 'nats', check: () => checkNatsReady(connection) },
        ...(dataSource ? [{ name: 'database', check: () => checkDatabaseReady(dataSource) }] : []),
      ],
    });
    return { module: PlatformModule, imports: [messaging, ...persistence, health] };
  }
}

/** The configuration keys the platform reads. */
export interface PlatformConfig {
  readonly NATS_URL: string;
  readonly SWITCHYARD_NAMESPACE?: string | undefined;
  readonly DATABASE_URL?: string | undefined;
}

/** The root of every service process: the platform, then the service's own feature module. */
@Module({})
export class ServiceRootModule {}

/** A service's root module: its own feature module on top of the platform. */
export function serviceRootModule(options: {
  readonly service: string;
  readonly feature: Type | DynamicModule;
  readonly config: PlatformConfig;
  readonly logger: JsonLogger;
}): DynamicModule {
  return {
    module: ServiceRootModule,
    imports: [
      PlatformModule.forRoot({
        service: options.service,
        natsUrl: options.config.NATS_URL,
        namespace: options.config.SWITCHYARD_NAMESPACE,
        databaseUrl: options.config.DATABASE_URL,
        logger: options.logger,
      }),
      options.feature,
    ],
  };
}
