import { hostname } from 'node:os';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';

interface LockOwner {
  pid: number;
  host: string;
  token: string;
}

// In-process: one promise chain per lock path, so tasks of this daemon queue without touching disk.
const chains = new Map<string, Promise<unknown>>();

/**
 * Runs `work` holding the lock `lockPath`: first this process's chain for it, then the directory
 * `lockPath` itself, renamed into place with its owner file (atomic, and it fails on an existing
 * lock: O_EXCL semantics), so a second daemon sharing the home waits too. A lock left by a process that died on this host is
 * taken over; one from another host is waited for (a shared home over NFS is not supported).
 */
export async function withRepositoryLock<T>(options: { lockPath: string; signal?: AbortSignal }, work: () => Promise<T>): Promise<T> {
  const previous = chains.get(options.lockPath) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(async () => {
    const release = await acquireLockDirectory(options.lockPath, options.signal);
    try {
      return await work();
    } finally {
      await release();
    }
  });
  chains.set(options.lockPath, run);
  try {
    return await run;
  } finally {
    if (chains.get(options.lockPath) === run) chains.delete(options.lockPath);
  }
}

async function acquireLockDirectory(lockPath: string, signal: AbortSignal | undefined): Promise<() => Promise<void>> {
  const owner: LockOwner = { pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex') };
  for (let attempt = 0; ; attempt += 1) {
    signal?.throwIfAborted();
    if (await tryCreateLockDirectory(lockPath, owner)) return () => rm(lockPath, { recursive: true, force: true });
    if (await takeOverIfAbandoned(lockPath)) continue;
    // Another process holds it: poll until it is gone. Backoff up to 200 ms between looks.
    await delay(Math.min(200, 10 * 2 ** Math.min(attempt, 5)), undefined, signal ? { signal } : undefined);
  }
}

/**
 * Builds the lock beside its place, owner file included, then renames it in: renaming onto an
 * existing (non-empty) directory fails, and a lock is never seen without its owner.
 */
async function tryCreateLockDirectory(lockPath: string, owner: LockOwner): Promise<boolean> {
  const draft = `${lockPath}.draft-${owner.token}`;
  await mkdir(draft, { recursive: true });
  await writeFile(`${draft}/owner.json`, JSON.stringify(owner));
  try {
    await rename(draft, lockPath);
    return true;
  } catch (error) {
    await rm(draft, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTEMPTY') return false;
    throw error;
  }
}

/** Removes the lock when its owner (on this host) is no longer alive; true when it did. */
async function takeOverIfAbandoned(lockPath: string): Promise<boolean> {
  const owner = await readOwner(lockPath);
  // No owner file yet: its maker is between mkdir and writeFile; wait rather than judge.
  if (owner === undefined || owner.host !== hostname() || isAlive(owner.pid)) return false;
  // Rename first, so of two processes judging the same dead owner only one removes the lock.
  const grave = `${lockPath}.abandoned-${randomBytes(4).toString('hex')}`;
  try {
    await rename(lockPath, grave);
  } catch {
    return false;
  }
  const moved = await readOwner(grave);
  if (moved?.token !== owner.token) {
    // Someone took the lock between our read and our rename: give it back.
    await rename(grave, lockPath).catch(() => undefined);
    return false;
  }
  await rm(grave, { recursive: true, force: true });
  return true;
}

async function readOwner(lockPath: string): Promise<LockOwner | undefined> {
  try {
    const parsed = JSON.parse(await readFile(`${lockPath}/owner.json`, 'utf8')) as Partial<LockOwner>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.token === 'string' ? (parsed as LockOwner) : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
