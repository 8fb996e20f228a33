import type { DataSource } from 'typeorm';
import { createDataSource, runMigrations } from '@switchyard/persistence';
import { createTestDatabase } from './test-database';

export interface MigratedTestDatabase {
  readonly url: string;
  /** Open on the database, as `applicationName` (what `pg_stat_activity` shows). */
  readonly dataSource: DataSource;
  /** Closes the data source and drops the database. */
  close(): Promise<void>;
}

/** A fresh database of the whole schema (every migration applied) and a data source open on it. */
export async function openMigratedTestDatabase(options: { readonly applicationName: string; readonly poolSize?: number }): Promise<MigratedTestDatabase> {
  const database = await createTestDatabase();
  try {
    await runMigrations({ url: database.url });
    const dataSource = createDataSource({ url: database.url, poolSize: options.poolSize ?? 4, applicationName: options.applicationName });
    await dataSource.initialize();
    return {
      url: database.url,
      dataSource,
      close: async () => {
        if (dataSource.isInitialized) await dataSource.destroy();
        await database.drop();
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}
