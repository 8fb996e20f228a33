/**
 * Runs tasks with at most `limit` in flight, and tasks sharing a key strictly one after another in
 * submission order (so messages on one subject are handled in stream order).
 */
export class KeyedConcurrencyLimiter {
  private available: number;
  private readonly waiting: Array<() => void> = [];
  private readonly tails = new Map<string, Promise<void>>();
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency must be a positive integer, got ${limit}`);
    this.available = limit;
  }

  /** Resolves once a slot is free; the caller must then `run` exactly one task. */
  async acquire(): Promise<void> {
    if (this.available > 0) {
      this.available -= 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Starts `task` after the previous task with the same key; frees the slot when it settles. */
  run(key: string, task: () => Promise<void>): void {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous
      .then(task)
      .catch(() => undefined)
      .finally(() => {
        this.release();
        if (this.tails.get(key) === current) this.tails.delete(key);
        this.running.delete(current);
      });
    this.tails.set(key, current);
    this.running.add(current);
  }

  get inFlight(): number {
    return this.running.size;
  }

  /** Resolves when every started task has settled. */
  async idle(): Promise<void> {
    while (this.running.size > 0) {
      await Promise.allSettled([...this.running]);
    }
  }

  /** Frees a slot taken by `acquire` without running a task. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.available = Math.min(this.available + 1, this.limit);
  }
}
