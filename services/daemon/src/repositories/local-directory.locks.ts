import { realpath } from 'node:fs/promises';

export type LocalDirectoryAcquisition = { acquired: true; path: string } | { acquired: false; path: string; heldBy: string };

/**
 * One task at a time per local directory (worked in place, no worktree to keep tasks apart), in
 * this daemon process. Paths are canonicalised with realpath, so two spellings of one folder, or a
 * symlink to it, share a lock.
 */
export class LocalDirectoryLocks {
  private readonly holders = new Map<string, string>();
  private readonly waiters = new Map<string, Set<() => void>>();

  /** Takes the lock for `taskId`, or says who holds it. The same task acquiring again is a no-op. */
  async tryAcquire(directory: string, taskId: string): Promise<LocalDirectoryAcquisition> {
    const canonical = await realpath(directory);
    const holder = this.holders.get(canonical);
    if (holder !== undefined && holder !== taskId) return { acquired: false, path: canonical, heldBy: holder };
    this.holders.set(canonical, taskId);
    return { acquired: true, path: canonical };
  }

  /** Resolves once nobody holds the lock (it does not take it); rejects with the signal's reason on abort. */
  async waitFor(directory: string, signal?: AbortSignal): Promise<void> {
    const canonical = await realpath(directory);
    if (!this.holders.has(canonical)) return;
    signal?.throwIfAborted();
    await new Promise<void>((resolve, reject) => {
      const waiters = this.waiters.get(canonical) ?? new Set<() => void>();
      this.waiters.set(canonical, waiters);
      const onAbort = (): void => {
        waiters.delete(wake);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('waiting for the local directory was aborted'));
      };
      const wake = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      waiters.add(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Gives the lock up if `taskId` holds it; wakes every waiter. Returns whether it held it. */
  async release(directory: string, taskId: string): Promise<boolean> {
    const canonical = await realpath(directory).catch(() => directory);
    if (this.holders.get(canonical) !== taskId) return false;
    this.holders.delete(canonical);
    const waiters = this.waiters.get(canonical);
    this.waiters.delete(canonical);
    for (const wake of waiters ?? []) wake();
    return true;
  }

  /** Every lock `taskId` holds, released: for a task that ended however it ended. */
  releaseAllOf(taskId: string): string[] {
    const released = [...this.holders].filter(([, holder]) => holder === taskId).map(([canonical]) => canonical);
    for (const canonical of released) {
      this.holders.delete(canonical);
      const waiters = this.waiters.get(canonical);
      this.waiters.delete(canonical);
      for (const wake of waiters ?? []) wake();
    }
    return released;
  }

  holderOf(canonicalPath: string): string | undefined {
    return this.holders.get(canonicalPath);
  }
}
