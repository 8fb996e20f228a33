import { ConcurrencyConflictError, EventStorageError } from '../errors/event-store.errors';
import { withOptimisticRetry } from './optimistic.retry';

const conflict = (): ConcurrencyConflictError => new ConcurrencyConflictError({ aggregateId: 'task-1', expectedVersion: 1, actualVersion: 2 });

describe('withOptimisticRetry', () => {
  it('runs the operation again after a conflict and returns its first success', async () => {
    const attemptsSeen: number[] = [];
    const conflictsSeen: number[] = [];

    const result = await withOptimisticRetry(
      (attempt) => {
        attemptsSeen.push(attempt);
        return attempt < 3 ? Promise.reject(conflict()) : Promise.resolve('appended');
      },
      { attempts: 5, onConflict: (_error, attempt) => conflictsSeen.push(attempt) },
    );

    expect(result).toBe('appended');
    expect(attemptsSeen).toEqual([1, 2, 3]);
    expect(conflictsSeen).toEqual([1, 2]);
  });

  it('rethrows the last conflict when every attempt conflicted', async () => {
    let calls = 0;
    const failing = withOptimisticRetry(
      () => {
        calls += 1;
        return Promise.reject(conflict());
      },
      { attempts: 3 },
    );

    await expect(failing).rejects.toBeInstanceOf(ConcurrencyConflictError);
    expect(calls).toBe(3);
  });

  it('does not retry other errors, even retryable ones', async () => {
    let calls = 0;
    const storageError = new EventStorageError('insert failed', Object.assign(new Error('connection reset'), { code: '08006' }));

    const failing = withOptimisticRetry(
      () => {
        calls += 1;
        return Promise.reject(storageError);
      },
      { attempts: 3 },
    );

    await expect(failing).rejects.toBe(storageError);
    expect(storageError.isRetryable).toBe(true);
    expect(calls).toBe(1);
  });
});
