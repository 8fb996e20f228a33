import { DataSource, type DataSourceOptions } from 'typeorm';
import { foundationEntities } from '../schema/record/foundation.entities';

type EntityList = NonNullable<DataSourceOptions['entities']>;
type MigrationList = NonNullable<DataSourceOptions['migrations']>;

export interface DataSourceSettings {
  readonly url: string;
  /** Added to the foundation entities (checkpoint, processed command, outbox), which are always present. */
  readonly entities?: EntityList;
  /** Only the migration runner needs these; services never run migrations themselves. */
  readonly migrations?: MigrationList;
  /** Connections in the pg pool; defaults to 10. */
  readonly poolSize?: number;
  /** Shown in pg_stat_activity, so an operator can tell services apart. */
  readonly applicationName?: string;
}

export const MIGRATIONS_TABLE_NAME = 'schema_migration';

/** A TypeORM data source for Postgres, not yet initialized. The schema belongs to migrations only. */
export function createDataSource(settings: DataSourceSettings): DataSource {
  const entities = [...new Set([...foundationEntities, ...toArray(settings.entities)])] as EntityList;
  return new DataSource({
    type: 'postgres',
    url: settings.url,
    entities,
    migrations: settings.migrations ?? [],
    migrationsTableName: MIGRATIONS_TABLE_NAME,
    // The schema changes only through reviewed migrations, never from entity metadata.
    synchronize: false,
    // The migration runner (npm start, tests, migrate.main) applies them under a lock.
    migrationsRun: false,
    // Migrations create what the schema needs; a service must not issue CREATE EXTENSION on connect.
    installExtensions: false,
    poolSize: settings.poolSize ?? 10,
    applicationName: settings.applicationName ?? 'switchyard',
    connectTimeoutMS: 10_000,
    logging: false,
  });
}

function toArray(entities: EntityList | undefined): unknown[] {
  if (!entities) return [];
  return Array.isArray(entities) ? entities : Object.values(entities);
}
