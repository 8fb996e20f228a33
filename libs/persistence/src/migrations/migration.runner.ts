import { MigrationExecutor, type MigrationInterface } from 'typeorm';
import { createDataSource } from '../data-source/data-source.factory';
import { allMigrations } from './migration.list';

/**
 * Arbitrary constant key of the transaction-level advisory lock that serializes migration
 * runners across processes ("switchyard" in ASCII digits, truncated to fit a bigint).
 */
export const MIGRATION_LOCK_KEY = '115119105116099104';

export interface MigrationRunOptions {
  readonly url: string;
  /** Defaults to allMigrations; tests may pass their own list. */
  readonly migrations?: ReadonlyArray<new () => MigrationInterface>;
}

export interface MigrationRunResult {
  /** Names of the migrations this call applied, in order; empty when the schema was current. */
  readonly applied: readonly string[];
}

/**
 * Applies pending migrations; idempotent, and safe when several processes race.
 *
 * TypeORM's MigrationExecutor has no lock: it reads the executed migrations before opening its
 * transaction, so two racing runners both apply everything and one fails. We open the
 * transaction first, take pg_advisory_xact_lock, and let the executor run inside it
 * (transaction 'all' joins an active one): the second runner waits at the lock and then reads
 * the first one's committed rows. On the embedded database the open transaction itself already
 * makes other clients wait.
 * Consequence: every migration runs in one transaction (no CREATE INDEX CONCURRENTLY).
 */
export async function runMigrations(options: MigrationRunOptions): Promise<MigrationRunResult> {
  const dataSource = createDataSource({
    url: options.url,
    migrations: [...(options.migrations ?? allMigrations)],
    poolSize: 1,
    applicationName: 'switchyard-migrate',
  });
  await dataSource.initialize();
  try {
    const queryRunner = dataSource.createQueryRunner();
    try {
      await queryRunner.startTransaction();
      await queryRunner.query(`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
      const executor = new MigrationExecutor(dataSource, queryRunner);
      executor.transaction = 'all';
      const executed = await executor.executePendingMigrations();
      await queryRunner.commitTransaction();
      return { applied: executed.map((migration) => migration.name) };
    } catch (error) {
      if (queryRunner.isTransactionActive) await queryRunner.rollbackTransaction();
      throw error;
    } finally {
      await queryRunner.release();
    }
  } finally {
    await dataSource.destroy();
  }
}
