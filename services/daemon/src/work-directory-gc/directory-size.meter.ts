import type { Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/** A walk stops here: a pathological tree costs one bounded pass, and its size is then a lower bound. */
export const DEFAULT_MAX_MEASURED_ENTRIES = 1_000_000;
/** lstat calls in flight per directory: quick on a big node_modules, still light on a laptop. */
const LSTAT_BATCH = 64;

export interface DirectorySize {
  /** Disk usage like `du`: allocated blocks, each hard-linked file once. */
  bytes: number;
  entries: number;
  /** False when the entry bound was reached or a part could not be read: `bytes` is then a lower bound. */
  complete: boolean;
}

/**
 * Measures a directory tree without following symlinks (a link counts as itself, so a
 * `local_directory` repository folder or a link out of the root adds nothing).
 */
export async function measureDirectorySize(directory: string, options: { maxEntries?: number } = {}): Promise<DirectorySize> {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_MEASURED_ENTRIES;
  const seenInodes = new Set<string>();
  const size: DirectorySize = { bytes: 0, entries: 0, complete: true };
  const count = (stats: Stats) => {
    if (stats.nlink > 1) {
      const inode = `${stats.dev}:${stats.ino}`;
      if (seenInodes.has(inode)) return;
      seenInodes.add(inode);
    }
    size.bytes += diskUsageOf(stats);
  };

  const root = await lstat(directory);
  count(root);
  const pending = root.isDirectory() && !root.isSymbolicLink() ? [directory] : [];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    let names: string[];
    try {
      names = await readdir(current);
    } catch {
      // Vanished or unreadable mid-walk (a run may be writing): what we have is a lower bound.
      size.complete = false;
      continue;
    }
    for (let start = 0; start < names.length; ) {
      if (size.entries >= maxEntries) return { ...size, complete: false };
      const batch = names.slice(start, start + Math.min(LSTAT_BATCH, maxEntries - size.entries));
      start += batch.length;
      const results = await Promise.allSettled(batch.map((name) => lstat(path.join(current, name))));
      results.forEach((result, index) => {
        size.entries += 1;
        if (result.status === 'rejected') {
          size.complete = false;
          return;
        }
        count(result.value);
        if (result.value.isDirectory()) pending.push(path.join(current, batch[index] as string));
      });
    }
  }
  return size;
}

function diskUsageOf(stats: Stats): number {
  // `blocks` is in 512-byte units wherever it is reported (a sparse file counts what it holds); apparent size elsewhere.
  return Number.isFinite(stats.blocks) ? stats.blocks * 512 : stats.size;
}
