import type { DataSource } from 'typeorm';

/** A technical error: the database did not answer; retrying later may succeed. */
export class DatabaseNotReadyError extends Error {
  readonly isRetryable = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseNotReadyError';
  }
}

/** Throws DatabaseNotReadyError unless `select 1` answers within the timeout. */
export async function checkDatabaseReady(
  dataSource: DataSource,
  options: { timeoutMilliseconds?: number } = {},
): Promise<void> {
  if (!dataSource.isInitialized) throw new DatabaseNotReadyError('data source is not initialized');
  const timeoutMilliseconds = options.timeoutMilliseconds ?? 5_000;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DatabaseNotReadyError(`database did not answer select 1 within ${timeoutMilliseconds} ms`)),
      timeoutMilliseconds,
    );
  });
  try {
    await Promise.race([dataSource.query('select 1'), timedOut]);
  } catch (error) {
    if (error instanceof DatabaseNotReadyError) throw error;
    throw new DatabaseNotReadyError(`database did not answer select 1: ${describe(error)}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
