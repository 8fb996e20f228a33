import { constants } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import type { WorkDirectoryFiles } from '@switchyard/agent-adapters/wing';
import { ExecEnvError } from './exec-env.error';

/** Ids that become directory names: no separators, no dots, so no traversal and no hidden names. */
const PATH_SEGMENT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

// O_NOFOLLOW refuses a symlink as the last component; O_NONBLOCK keeps a planted FIFO from hanging us.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCKING = constants.O_NONBLOCK ?? 0;

export function isPathSegmentIdentifier(value: string): boolean {
  return PATH_SEGMENT_PATTERN.test(value);
}

export function assertPathSegmentIdentifier(label: string, value: string): string {
  if (!isPathSegmentIdentifier(value)) {
    throw new ExecEnvError('invalid_identifier', `${label} is not usable as a directory name: ${JSON.stringify(value)}`);
  }
  return value;
}

/** True when `child` is strictly below `parent` (both absolute, already resolved). */
export function isStrictlyInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/** Splits a relative POSIX path into plain segments; rejects absolute paths, `..`, `.`, empty parts, NUL, backslashes. */
export function splitRelativePath(relativePath: string): string[] {
  const segments = relativePath.split('/');
  const valid =
    relativePath.length > 0 &&
    !relativePath.includes('\0') &&
    !relativePath.includes('\\') &&
    !path.isAbsolute(relativePath) &&
    segments.every((segment) => segment !== '' && segment !== '.' && segment !== '..');
  if (!valid) throw new ExecEnvError('unsafe_path', `Not a safe relative path: ${JSON.stringify(relativePath)}`);
  return segments;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/**
 * Creates (or walks) `root/segments...` one component at a time, refusing any component that is
 * a symlink or not a directory, so a link planted by an earlier run cannot redirect our writes.
 */
export async function ensureDirectoryInside(options: { root: string; segments: readonly string[] }): Promise<string> {
  let current = options.root;
  for (const segment of options.segments) {
    current = path.join(current, segment);
    try {
      await mkdir(current, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const stats = await lstat(current);
    if (stats.isSymbolicLink() || !stats.isDirectory()) {
      throw new ExecEnvError('unsafe_path', `Refusing to use ${current}: not a plain directory`);
    }
  }
  return current;
}

/** Reads `root/relativePath` without following symlinks; `undefined` when it does not exist. */
export async function readFileInside(options: { root: string; relativePath: string }): Promise<Buffer | undefined> {
  const segments = splitRelativePath(options.relativePath);
  let current = options.root;
  for (const segment of segments.slice(0, -1)) {
    current = path.join(current, segment);
    let stats;
    try {
      stats = await lstat(current);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    if (stats.isSymbolicLink() || !stats.isDirectory()) {
      throw new ExecEnvError('unsafe_path', `Refusing to read through ${current}: not a plain directory`);
    }
  }
  const target = path.join(options.root, ...segments);
  let handle;
  try {
    handle = await open(target, constants.O_RDONLY | NO_FOLLOW | NON_BLOCKING);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw new ExecEnvError('unsafe_path', `Refusing to read ${target}`, { cause: error });
  }
  try {
    if (!(await handle.stat()).isFile()) throw new ExecEnvError('unsafe_path', `Refusing to read ${target}: not a regular file`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** Writes `root/relativePath`, creating plain parent directories and never following a symlink. */
export async function writeFileInside(options: {
  root: string;
  relativePath: string;
  content: string | Buffer;
  mode?: number;
}): Promise<string> {
  const segments = splitRelativePath(options.relativePath);
  const parent = await ensureDirectoryInside({ root: options.root, segments: segments.slice(0, -1) });
  const target = path.join(parent, segments[segments.length - 1] ?? '');
  let handle;
  try {
    handle = await open(target, constants.O_WRONLY | constants.O_CREAT | NO_FOLLOW | NON_BLOCKING, options.mode ?? 0o644);
  } catch (error) {
    throw new ExecEnvError('unsafe_path', `Refusing to write ${target}`, { cause: error });
  }
  try {
    if (!(await handle.stat()).isFile()) throw new ExecEnvError('unsafe_path', `Refusing to write ${target}: not a regular file`);
    await handle.truncate(0);
    await handle.writeFile(options.content);
  } finally {
    await handle.close();
  }
  return target;
}

/** Writes only when the bytes differ; returns whether anything changed. */
export async function writeFileInsideIfChanged(options: {
  root: string;
  relativePath: string;
  content: string | Buffer;
  mode?: number;
}): Promise<{ path: string; changed: boolean; existed: boolean }> {
  const existing = await readFileInside(options);
  const next = typeof options.content === 'string' ? Buffer.from(options.content, 'utf8') : options.content;
  const target = path.join(options.root, ...splitRelativePath(options.relativePath));
  if (existing !== undefined && existing.equals(next)) return { path: target, changed: false, existed: true };
  await writeFileInside({ ...options, content: next });
  return { path: target, changed: true, existed: existing !== undefined };
}

/** The work directory's files as the adapters' MCP writers may touch them: through this guard only. */
export function workDirectoryFiles(root: string): WorkDirectoryFiles {
  return {
    read: (relativePath) => readFileInside({ root, relativePath }),
    writeIfChanged: async (relativePath, content, mode) => {
      const { path: written, changed } = await writeFileInsideIfChanged({ root, relativePath, content, mode });
      return { path: written, changed };
    },
  };
}
