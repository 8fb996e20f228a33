import { randomBytes } from 'node:crypto';
import { lstat, mkdir, realpath, rename } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { ClaimedTask } from '@switchyard/contracts';
import { describeWorkDirectoryRemoval, readWorkDirectoryTombstone } from './work-directory.tombstone';
import { ExecEnvError } from './exec-env.error';
import {
  assertPathSegmentIdentifier,
  ensureDirectoryInside,
  isPathSegmentIdentifier,
  isStrictlyInside,
  readFileInside,
  writeFileInside,
} from './safe-path.guard';

/** Our folder inside every work directory: marker, private temp dir, MCP files. Git-ignored by its own `.gitignore`. */
export const SWITCHYARD_FOLDER = '.switchyard';
export const WORK_DIRECTORY_MARKER_PATH = `${SWITCHYARD_FOLDER}/workdir.json`;
export const WORK_DIRECTORY_MARKER_SCHEMA_VERSION = 1;

export interface WorkDirectoryMarker {
  schemaVersion: typeof WORK_DIRECTORY_MARKER_SCHEMA_VERSION;
  workspaceId: string;
  agentId: string;
  /** `issue:<issueId>`, `chat:<chatSessionId>` or `task:<taskId>` (never reused). */
  sourceKey: string;
  /** The daemon installation's random id: another daemon sharing the root never reuses our dirs. */
  ownerId: string;
  createdAt: string;
  createdByTaskId: string;
  /** When a task last started or ended here; the work-directory GC ages directories by it. */
  lastUsedAt: string;
}

const markerSchema = z.object({
  schemaVersion: z.literal(WORK_DIRECTORY_MARKER_SCHEMA_VERSION),
  workspaceId: z.string().min(1),
  agentId: z.string().min(1),
  sourceKey: z.string().min(1),
  ownerId: z.string().min(1),
  createdAt: z.string().min(1),
  createdByTaskId: z.string().min(1),
  // Markers written before the GC existed have none: they were last used when they were made, as far as we know.
  lastUsedAt: z.string().min(1).optional(),
}).transform((marker): WorkDirectoryMarker => ({ ...marker, lastUsedAt: marker.lastUsedAt ?? marker.createdAt }));

export type WorkDirectoryMarkerRead =
  | { kind: 'valid'; marker: WorkDirectoryMarker }
  | { kind: 'absent' }
  | { kind: 'invalid'; detail: string };

/** Reads `<directory>/.switchyard/workdir.json` without following symlinks; says why when it proves nothing. */
export async function readWorkDirectoryMarker(directory: string): Promise<WorkDirectoryMarkerRead> {
  let raw;
  try {
    raw = await readFileInside({ root: directory, relativePath: WORK_DIRECTORY_MARKER_PATH });
  } catch (error) {
    if (error instanceof ExecEnvError) return { kind: 'invalid', detail: 'marker file is behind a symlink or not a regular file' };
    throw error;
  }
  if (raw === undefined) return { kind: 'absent' };
  let parsed;
  try {
    parsed = markerSchema.safeParse(JSON.parse(raw.toString('utf8')));
  } catch {
    return { kind: 'invalid', detail: 'marker file is not JSON' };
  }
  return parsed.success ? { kind: 'valid', marker: parsed.data } : { kind: 'invalid', detail: 'marker file does not match the marker schema' };
}

/**
 * Marks the work directory used at `now` (call it when a run there ends), so the GC ages it from
 * its last use. A directory without a valid marker is not provably ours and is left as it is:
 * returns the new marker, or undefined when nothing was written.
 */
export async function touchWorkDirectory(directory: string, now: Date): Promise<WorkDirectoryMarker | undefined> {
  const read = await readWorkDirectoryMarker(directory);
  if (read.kind !== 'valid') return undefined;
  const marker = { ...read.marker, lastUsedAt: now.toISOString() };
  await writeWorkDirectoryMarker(directory, marker);
  return marker;
}

async function writeWorkDirectoryMarker(directory: string, marker: WorkDirectoryMarker): Promise<void> {
  // Written aside, then renamed over: the GC or a follow-up never reads a half-written marker.
  const aside = `${WORK_DIRECTORY_MARKER_PATH}.${randomBytes(4).toString('hex')}.tmp`;
  const written = await writeFileInside({ root: directory, relativePath: aside, content: `${JSON.stringify(marker, null, 2)}\n`, mode: 0o600 });
  await rename(written, path.join(directory, WORK_DIRECTORY_MARKER_PATH));
}

export type WorkDirectoryReason =
  | 'reused'
  | 'no_prior_work_directory'
  | 'source_not_reusable'
  | 'prior_outside_root'
  | 'prior_missing'
  /** The prior directory was removed by the work-directory GC (its tombstone says when and why). */
  | 'prior_collected'
  | 'prior_not_a_directory'
  | 'marker_absent'
  | 'marker_invalid'
  | 'marker_mismatch';

export interface WorkDirectory {
  path: string;
  reused: boolean;
  /** `reused`, or why the prior directory was not. */
  reason: WorkDirectoryReason;
  /** One sentence for logs; never contains secrets. */
  detail: string;
  marker: WorkDirectoryMarker;
}

export type WorkDirectoryTask = Pick<ClaimedTask, 'taskId' | 'workspaceId' | 'agentId' | 'source'>;

export interface PrepareWorkDirectoryOptions {
  /** Absolute workspaces root; created when missing. */
  root: string;
  ownerId: string;
  task: WorkDirectoryTask;
  /** The directory the prior task of this (agent, issue) or chat session ran in, e.g. from the resume decision. */
  priorWorkDirectory: string | null;
  now?: () => Date;
}

/** Issue and chat tasks continue a conversation, so they may continue its directory; the rest never do. */
export function workDirectorySourceKey(task: Pick<ClaimedTask, 'taskId' | 'source'>): { sourceKey: string; reusable: boolean } {
  switch (task.source.kind) {
    case 'issue':
      return { sourceKey: `issue:${task.source.issueId}`, reusable: true };
    case 'chat':
      return { sourceKey: `chat:${task.source.chatSessionId}`, reusable: true };
    case 'autopilot':
    case 'quick_create':
      return { sourceKey: `task:${task.taskId}`, reusable: false };
  }
}

/**
 * Gives the task its directory `<root>/<workspaceId>/<agentId>/<key>`: the prior one when it still
 * exists and its marker proves it ours and for the same workspace, agent, source and owner;
 * otherwise a brand-new one. A directory that is not provably ours is never written to or removed.
 */
export async function prepareWorkDirectory(options: PrepareWorkDirectoryOptions): Promise<WorkDirectory> {
  const { task } = options;
  assertPathSegmentIdentifier('workspaceId', task.workspaceId);
  assertPathSegmentIdentifier('agentId', task.agentId);
  assertPathSegmentIdentifier('taskId', task.taskId);
  if (!path.isAbsolute(options.root)) throw new ExecEnvError('unsafe_path', `Workspaces root must be absolute: ${options.root}`);

  await mkdir(options.root, { recursive: true, mode: 0o700 });
  const realRoot = await realpath(options.root);
  const agentDirectory = await ensureDirectoryInside({ root: realRoot, segments: [task.workspaceId, task.agentId] });
  const { sourceKey, reusable } = workDirectorySourceKey(task);
  const expected = { workspaceId: task.workspaceId, agentId: task.agentId, sourceKey, ownerId: options.ownerId };

  const verdict = reusable
    ? await judgePriorWorkDirectory({ prior: options.priorWorkDirectory, roots: [options.root, realRoot], agentDirectory, expected })
    : ({ reason: 'source_not_reusable', detail: `${task.source.kind} tasks always start in a fresh directory` } as const);
  const now = (options.now ?? (() => new Date()))();
  if (verdict.reason === 'reused') {
    // A task starting here is a use: the GC must not take the directory out from under it.
    const marker = { ...verdict.marker, lastUsedAt: now.toISOString() };
    await writeWorkDirectoryMarker(verdict.path, marker);
    return { path: verdict.path, reused: true, reason: 'reused', detail: verdict.detail, marker };
  }

  const marker: WorkDirectoryMarker = {
    schemaVersion: WORK_DIRECTORY_MARKER_SCHEMA_VERSION,
    ...expected,
    createdAt: now.toISOString(),
    createdByTaskId: task.taskId,
    lastUsedAt: now.toISOString(),
  };
  const fresh = await createFreshDirectory(agentDirectory, task.taskId);
  await writeFileInside({ root: fresh, relativePath: `${SWITCHYARD_FOLDER}/.gitignore`, content: '*\n' });
  await writeWorkDirectoryMarker(fresh, marker);
  return { path: fresh, reused: false, reason: verdict.reason, detail: verdict.detail, marker };
}

type Verdict =
  | { reason: 'reused'; path: string; detail: string; marker: WorkDirectoryMarker }
  | { reason: Exclude<WorkDirectoryReason, 'reused'>; detail: string };

async function judgePriorWorkDirectory(options: {
  prior: string | null;
  roots: string[];
  agentDirectory: string;
  expected: Pick<WorkDirectoryMarker, 'workspaceId' | 'agentId' | 'sourceKey' | 'ownerId'>;
}): Promise<Verdict> {
  const { prior, agentDirectory, expected } = options;
  if (!prior) return { reason: 'no_prior_work_directory', detail: 'no prior work directory was given' };
  if (!path.isAbsolute(prior) || prior.includes('\0')) return { reason: 'prior_outside_root', detail: 'prior work directory is not an absolute path' };

  const resolved = path.resolve(prior);
  if (!options.roots.some((root) => isStrictlyInside(root, resolved))) {
    return { reason: 'prior_outside_root', detail: 'prior work directory is not under the workspaces root' };
  }
  let stats;
  try {
    stats = await lstat(resolved);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return judgeMissingPrior(resolved, agentDirectory);
    throw error;
  }
  if (stats.isSymbolicLink() || !stats.isDirectory()) {
    return { reason: 'prior_not_a_directory', detail: 'prior work directory is a symlink or not a directory' };
  }
  // The real path must be exactly one level below this workspace's and agent's directory.
  const realPrior = await realpath(resolved);
  if (path.dirname(realPrior) !== agentDirectory) {
    return { reason: 'prior_outside_root', detail: 'prior work directory is not a task directory of this workspace and agent' };
  }

  const read = await readWorkDirectoryMarker(realPrior);
  if (read.kind === 'absent') return { reason: 'marker_absent', detail: 'prior work directory has no Switchyard marker' };
  if (read.kind === 'invalid') return { reason: 'marker_invalid', detail: read.detail };

  const { marker } = read;
  const mismatched = (Object.keys(expected) as (keyof typeof expected)[]).filter((key) => marker[key] !== expected[key]);
  if (mismatched.length > 0) return { reason: 'marker_mismatch', detail: `marker differs in ${mismatched.join(', ')}` };
  return { reason: 'reused', path: realPrior, detail: 'prior work directory exists and its marker matches', marker };
}

/** A missing prior directory the GC removed left a tombstone beside it: say so, not just "missing". */
async function judgeMissingPrior(prior: string, agentDirectory: string): Promise<Verdict> {
  const directoryName = path.basename(prior);
  const parent = await realpath(path.dirname(prior)).catch(() => undefined);
  const tombstone =
    parent === agentDirectory && isPathSegmentIdentifier(directoryName) ? await readWorkDirectoryTombstone({ agentDirectory, directoryName }) : undefined;
  if (tombstone) return { reason: 'prior_collected', detail: describeWorkDirectoryRemoval(tombstone) };
  return { reason: 'prior_missing', detail: 'prior work directory no longer exists' };
}

async function createFreshDirectory(agentDirectory: string, taskId: string): Promise<string> {
  // mkdir without `recursive` fails on an existing name, so we never adopt a directory someone else made.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const candidate = path.join(agentDirectory, `${taskId}-${randomBytes(4).toString('hex')}`);
    try {
      await mkdir(candidate, { mode: 0o700 });
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new ExecEnvError('work_directory_unavailable', `No free work directory name under ${agentDirectory}`, { isRetryable: true });
}
