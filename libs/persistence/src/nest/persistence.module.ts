import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type FactoryProvider,
  type ModuleMetadata,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { createDataSource, type DataSourceSettings } from '../data-source/data-source.factory';
import { checkDatabaseReady } from '../data-source/database-readiness.check';
import { DATA_SOURCE, PERSISTENCE_OPTIONS } from './persistence.injection-keys';

export type PersistenceModuleOptions = Omit<DataSourceSettings, 'migrations'>;

export interface PersistenceModuleAsyncOptions {
  readonly imports?: ModuleMetadata['imports'];
  readonly inject?: FactoryProvider['inject'];
  readonly useFactory: (...dependencies: never[]) => PersistenceModuleOptions | Promise<PersistenceModuleOptions>;
}

async function openDataSource(options: PersistenceModuleOptions): Promise<DataSource> {
  const dataSource = createDataSource(options);
  await dataSource.initialize();
  try {
    await checkDatabaseReady(dataSource);
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return dataSource;
}

/** Closes the pool when Nest shuts down, after every other provider has stopped using it. */
@Injectable()
export class DataSourceShutdown implements OnApplicationShutdown {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/**
 * Provides DATA_SOURCE, an initialized TypeORM DataSource, to the whole application (global, so
 * feature modules inject it without importing this module). It never runs migrations.
 */
@Module({})
export class PersistenceModule {
  static forRoot(options: PersistenceModuleOptions): DynamicModule {
    return PersistenceModule.forRootAsync({ useFactory: () => options });
  }

  static forRootAsync(options: PersistenceModuleAsyncOptions): DynamicModule {
    return {
      module: PersistenceModule,
      global: true,
      imports: options.imports ?? [],
      providers: [
        { provide: PERSISTENCE_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
        { provide: DATA_SOURCE, useFactory: openDataSource, inject: [PERSISTENCE_OPTIONS] },
        DataSourceShutdown,
      ],
      exports: [DATA_SOURCE],
    };
  }
}
