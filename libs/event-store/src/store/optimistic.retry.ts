import { ConcurrencyConflictError } from '../errors/event-store.errors';

export interface OptimisticRetryOptions {
  /** Total tries including the first; at least 1. */
  readonly attempts: number;
  /** Called before each retry, e.g. to count conflicts. */
  readonly onConflict?: (error: ConcurrencyConflictError, attempt: number) => void;
}

/**
 * Runs `load → decide → appendEvents` again when another writer won the race. `operation` must
 * reload the aggregate on every call (it gets the 1-based attempt number). Only
 * `ConcurrencyConflictError` is retried; the last one is rethrown when every attempt conflicted.
 */
export async function withOptimisticRetry<T>(operation: (attempt: number) => Promise<T>, options: OptimisticRetryOptions): Promise<T> {
  const attempts = Math.max(1, Math.floor(options.attempts));
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await operation(attempt);
    } catch (error) {
      if (!(error instanceof ConcurrencyConflictError) || attempt >= attempts) throw error;
      options.onConflict?.(error, attempt);
    }
  }
}
