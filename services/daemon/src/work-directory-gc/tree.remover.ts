import { chmod, lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * `rm -r` that also clears trees tools made read-only (Go's module cache, some package managers):
 * on a refusal it gives the owner write access to the directories, never through a symlink, and
 * tries once more. Symlinks inside are unlinked, never followed (node's `rm` lstat's each entry).
 */
export async function removeTree(directory: string): Promise<void> {
  try {
    await rm(directory, { recursive: true, force: true });
  } catch (error) {
    if (!['EACCES', 'EPERM'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    await makeDirectoriesWritable(directory);
    await rm(directory, { recursive: true, force: true });
  }
}

async function makeDirectoriesWritable(root: string): Promise<void> {
  const pending = [root];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    const stats = await lstat(current).catch(() => undefined);
    if (!stats || stats.isSymbolicLink() || !stats.isDirectory()) continue;
    await chmod(current, (stats.mode & 0o777) | 0o700);
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) if (entry.isDirectory()) pending.push(path.join(current, entry.name));
  }
}
