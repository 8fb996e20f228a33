import type { DataSource, QueryRunner } from 'typeorm';
import { EventStorageError, RelayLeadershipLostError } from '../errors/event-store.errors';

/**
 * Key of the session-level advisory lock only the active relay holds ("outbox" in ASCII digits).
 * Every service writing to the same database shares it: one relay publishes every service's rows.
 */
export const OUTBOX_RELAY_LOCK_KEY = '111117116098111120';

interface DestroyableQueryRunner {
  /** TypeORM's PostgresQueryRunner: with an error, pg-pool destroys the client instead of reusing it. */
  releasePostgresConnection?(error?: unknown): Promise<void>;
}

/**
 * `pg_try_advisory_lock` held on a dedicated connection taken from the data source's pool (it stays
 * checked out while held). Postgres releases the lock when that connection ends, so a relay that
 * dies hands over to a standby automatically. Statements that must only run while the lock is held
 * go through `query`, on the same connection: if it has died the statement fails, and the holder
 * learns it may no longer be the only active relay.
 */
export class RelayLeadershipLock {
  private runner: QueryRunner | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly key: string = OUTBOX_RELAY_LOCK_KEY,
  ) {}

  get held(): boolean {
    return this.runner !== undefined && !this.runner.isReleased;
  }

  /** True when this instance holds the lock (already or now); false when another session does. */
  async tryAcquire(): Promise<boolean> {
    if (this.runner) {
      if (!this.runner.isReleased) return true;
      this.runner = undefined;
    }
    const runner = this.dataSource.createQueryRunner();
    try {
      const rows = (await runner.query('select pg_try_advisory_lock($1::bigint) as acquired', [this.key])) as Array<{ acquired: boolean }>;
      if (rows[0]?.acquired === true) {
        this.runner = runner;
        return true;
      }
      await runner.release();
      return false;
    } catch (error) {
      await destroy(runner, error);
      throw new EventStorageError('trying the outbox relay lock failed', error);
    }
  }

  /** Runs a statement on the lock's connection; any failure gives the lock up (the connection is destroyed). */
  async query<T>(statement: string, parameters: unknown[]): Promise<T> {
    const runner = this.runner;
    if (!runner || runner.isReleased) {
      this.runner = undefined;
      throw new RelayLeadershipLostError(new Error('the lock connection was closed'));
    }
    try {
      return (await runner.query(statement, parameters)) as T;
    } catch (error) {
      this.runner = undefined;
      await destroy(runner, error);
      throw new RelayLeadershipLostError(error);
    }
  }

  /** Unlocks and returns the connection to the pool; destroys it when unlocking fails. Never throws. */
  async release(): Promise<void> {
    const runner = this.runner;
    this.runner = undefined;
    if (!runner || runner.isReleased) return;
    try {
      await runner.query('select pg_advisory_unlock($1::bigint)', [this.key]);
      await runner.release();
    } catch (error) {
      await destroy(runner, error);
    }
  }
}

async function destroy(runner: QueryRunner, error: unknown): Promise<void> {
  try {
    const destroyable = runner as QueryRunner & DestroyableQueryRunner;
    if (destroyable.releasePostgresConnection) await destroyable.releasePostgresConnection(error instanceof Error ? error : new Error(String(error)));
    else await runner.release();
  } catch {
    // The connection is unusable either way; nothing more to do with it.
  }
}
