import type { DataSource, QueryRunner } from 'typeorm';

/** Runs `work` with a query runner of its own (a migration's `up` or `down`), released whatever happens. */
export async function withQueryRunner(dataSource: DataSource, work: (runner: QueryRunner) => Promise<void>): Promise<void> {
  const runner = dataSource.createQueryRunner();
  try {
    await work(runner);
  } finally {
    await runner.release();
  }
}
