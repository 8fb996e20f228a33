import type { DynamicModule } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { checkDatabaseReady } from '../data-source/database-readiness.check';
import { PersistenceModule } from './persistence.module';
import { DATA_SOURCE } from './persistence.injection-keys';

/**
 * The database as a service's platform extension (`defineService({ platform })` of the service
 * kit): the pool, and a `database` readiness check on it. Only services that keep state ask for it,
 * so the daemon never loads TypeORM or a driver.
 */
export function databasePlatform(options: { readonly url: string; readonly applicationName: string }): {
  readonly module: DynamicModule;
  readonly readiness: { readonly name: string; readonly inject: typeof DATA_SOURCE; readonly check: (dataSource: DataSource) => Promise<void> };
} {
  return {
    module: PersistenceModule.forRoot({ url: options.url, applicationName: options.applicationName }),
    readiness: { name: 'database', inject: DATA_SOURCE, check: (dataSource) => checkDatabaseReady(dataSource) },
  };
}
