import { attemptKey, readAttemptHolders, type AttemptHolders, type SqlRunner, type TaskAttempt } from '@switchyard/persistence';

/**
 * Who holds each (task, attempt), remembered in a bounded LRU: the holder of an attempt never
 * changes, so a busy task costs one lookup per attempt. Only found holders are remembered; an
 * attempt with none yet is asked again next time.
 */
export class AttemptHolderCache {
  private readonly holders = new Map<string, string>();

  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
  }

  get size(): number {
    return this.holders.size;
  }

  /** The holders of these attempts: remembered ones, the rest in one read. */
  async holdersOf(runner: SqlRunner, pairs: readonly TaskAttempt[]): Promise<AttemptHolders> {
    const found = new Map<string, string | undefined>();
    const missing: TaskAttempt[] = [];
    for (const pair of pairs) {
      const key = attemptKey(pair);
      if (found.has(key)) continue;
      const holder = this.recall(key);
      found.set(key, holder);
      if (holder === undefined) missing.push(pair);
    }
    if (missing.length === 0) return found;
    const read = await readAttemptHolders(runner, missing);
    for (const [key, holder] of read) {
      found.set(key, holder);
      if (holder !== undefined) this.remember(key, holder);
    }
    return found;
  }

  private recall(key: string): string | undefined {
    const holder = this.holders.get(key);
    if (holder === undefined) return undefined;
    // Most recently used last: a Map iterates in insertion order.
    this.holders.delete(key);
    this.holders.set(key, holder);
    return holder;
  }

  private remember(key: string, holder: string): void {
    this.holders.delete(key);
    this.holders.set(key, holder);
    while (this.holders.size > this.capacity) {
      const oldest = this.holders.keys().next().value;
      if (oldest === undefined) return;
      this.holders.delete(oldest);
    }
  }
}
