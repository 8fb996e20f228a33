import type { DataSource, QueryRunner } from 'typeorm';
import { sleep } from '@switchyard/messaging';

/**
 * Advisory lock key ("timeln" in ASCII): projectors hold it shared, a rebuild holds it
 * exclusively, so a rebuild never truncates under a running projector and a projector started
 * during a rebuild waits for it. On the embedded database (one session) locks do not exclude.
 */
export const TIMELINE_LOCK_KEY = 0x74696d656c6e;

export interface HeldLock {
  release(): Promise<void>;
}

/** Waits (polling, abortable) until no rebuild runs, then holds the lock shared. */
export async function holdProjectorLock(options: {
  readonly dataSource: DataSource;
  readonly signal: AbortSignal;
  readonly onWait: () => void;
  readonly pollMs?: number;
}): Promise<HeldLock | undefined> {
  const runner = options.dataSource.createQueryRunner();
  await runner.connect();
  try {
    while (!(await tryLock(runner, 'pg_try_advisory_lock_shared'))) {
      options.onWait();
      await sleep(options.pollMs ?? 1_000, options.signal);
      if (options.signal.aborted) {
        await runner.release();
        return undefined;
      }
    }
  } catch (error) {
    await runner.release();
    throw error;
  }
  return { release: () => unlock(runner, 'pg_advisory_unlock_shared') };
}

/** The exclusive lock of a rebuild, or undefined while any projector runs. */
export async function tryRebuildLock(dataSource: DataSource): Promise<HeldLock | undefined> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  let acquired = false;
  try {
    acquired = await tryLock(runner, 'pg_try_advisory_lock');
  } finally {
    if (!acquired) await runner.release();
  }
  return acquired ? { release: () => unlock(runner, 'pg_advisory_unlock') } : undefined;
}

async function tryLock(runner: QueryRunner, lockFunction: 'pg_try_advisory_lock' | 'pg_try_advisory_lock_shared'): Promise<boolean> {
  const rows = (await runner.query(`select ${lockFunction}($1::bigint) as acquired`, [TIMELINE_LOCK_KEY])) as Array<{ acquired: boolean }>;
  return rows[0]?.acquired === true;
}

async function unlock(runner: QueryRunner, unlockFunction: 'pg_advisory_unlock' | 'pg_advisory_unlock_shared'): Promise<void> {
  try {
    await runner.query(`select ${unlockFunction}($1::bigint)`, [TIMELINE_LOCK_KEY]);
  } finally {
    await runner.release();
  }
}
