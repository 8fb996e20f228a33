import { lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ExecEnvError } from './exec-env.error';
import { readFileInside, writeFileInside } from './safe-path.guard';

/** Why the work-directory GC removed a directory. */
export const WORK_DIRECTORY_REMOVAL_REASONS = ['expired', 'over_size_budget'] as const;
export type WorkDirectoryRemovalReason = (typeof WORK_DIRECTORY_REMOVAL_REASONS)[number];

/**
 * What the GC leaves in `<agentDirectory>/.gc/<directoryName>.json` when it removes a work
 * directory, so a follow-up that wanted it learns why it starts fresh (`prior_collected`).
 * The dot keeps the folder out of the GC's own walk and out of every task directory's name.
 */
export const TOMBSTONE_FOLDER = '.gc';
/** Long enough for any follow-up of a removed directory to explain itself, short enough to stay small. */
export const TOMBSTONE_RETENTION_MS = 30 * 24 * 60 * 60_000;

export interface WorkDirectoryTombstone {
  schemaVersion: 1;
  removedAt: string;
  reason: WorkDirectoryRemovalReason;
  sourceKey: string;
}

const tombstoneSchema = z.object({
  schemaVersion: z.literal(1),
  removedAt: z.iso.datetime(),
  reason: z.enum(WORK_DIRECTORY_REMOVAL_REASONS),
  sourceKey: z.string().min(1),
});

const REASON_TEXT: Record<WorkDirectoryRemovalReason, string> = {
  expired: 'it was unused for longer than DAEMON_WORKDIR_MAX_AGE_MS',
  over_size_budget: "the agent's work directories exceeded DAEMON_WORKDIR_MAX_BYTES_PER_AGENT and it was the least recently used",
};

/** One sentence for the resume note and logs. */
export function describeWorkDirectoryRemoval(tombstone: WorkDirectoryTombstone): string {
  return `the prior work directory was removed by the work-directory GC at ${tombstone.removedAt}: ${REASON_TEXT[tombstone.reason]}`;
}

export async function writeWorkDirectoryTombstone(options: { agentDirectory: string; directoryName: string; tombstone: WorkDirectoryTombstone }): Promise<void> {
  await writeFileInside({
    root: options.agentDirectory,
    relativePath: `${TOMBSTONE_FOLDER}/${options.directoryName}.json`,
    content: `${JSON.stringify(options.tombstone)}\n`,
    mode: 0o600,
  });
}

/** The tombstone of `directoryName`, or undefined when there is none or it is not one of ours (symlinked, malformed). */
export async function readWorkDirectoryTombstone(options: { agentDirectory: string; directoryName: string }): Promise<WorkDirectoryTombstone | undefined> {
  let raw;
  try {
    raw = await readFileInside({ root: options.agentDirectory, relativePath: `${TOMBSTONE_FOLDER}/${options.directoryName}.json` });
  } catch (error) {
    if (error instanceof ExecEnvError) return undefined;
    throw error;
  }
  if (raw === undefined) return undefined;
  try {
    const parsed = tombstoneSchema.safeParse(JSON.parse(raw.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Removes this agent's tombstones older than the retention (and malformed ones); returns how many went. */
export async function pruneWorkDirectoryTombstones(options: { agentDirectory: string; nowMs: number; retentionMs?: number }): Promise<number> {
  const retentionMs = options.retentionMs ?? TOMBSTONE_RETENTION_MS;
  const folder = path.join(options.agentDirectory, TOMBSTONE_FOLDER);
  const stats = await lstat(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  // A `.gc` that is a symlink or a file is not ours to clean: removing through it could reach anywhere.
  if (!stats || stats.isSymbolicLink() || !stats.isDirectory()) return 0;
  const entries = await readdir(folder, { withFileTypes: true });
  let pruned = 0;
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
    const directoryName = entry.name.slice(0, -'.json'.length);
    const tombstone = await readWorkDirectoryTombstone({ agentDirectory: options.agentDirectory, directoryName });
    if (tombstone && options.nowMs - Date.parse(tombstone.removedAt) <= retentionMs) continue;
    await rm(path.join(folder, entry.name), { force: true });
    pruned += 1;
  }
  return pruned;
}
