import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { isPathSegmentIdentifier } from '../exec-env/safe-path.guard';
import { readWorkDirectoryMarker, type WorkDirectoryMarker } from '../exec-env/work-directory.preparer';

/** `<root>/<workspaceId>/<agentId>`, reached through plain directories only. */
export interface AgentDirectory {
  workspaceId: string;
  agentId: string;
  path: string;
}

/** A task directory whose marker proves it this daemon's, for this workspace and agent. */
export interface OwnedWorkDirectory {
  path: string;
  name: string;
  marker: WorkDirectoryMarker;
  lastUsedAtMs: number;
}

export type SkippedEntryReason = 'not_a_plain_directory' | 'marker_absent' | 'marker_invalid' | 'marker_mismatch';

export interface SkippedEntry {
  path: string;
  reason: SkippedEntryReason;
  detail: string;
}

/**
 * The agent folders under the (real) root. Names that are not ids (`.gc`, dot folders, files) and
 * symlinks are not ours to walk: the GC never leaves the root.
 */
export async function listAgentDirectories(realRoot: string): Promise<AgentDirectory[]> {
  const agents: AgentDirectory[] = [];
  for (const workspace of await plainDirectories(realRoot)) {
    const workspacePath = path.join(realRoot, workspace);
    for (const agent of await plainDirectories(workspacePath)) {
      agents.push({ workspaceId: workspace, agentId: agent, path: path.join(workspacePath, agent) });
    }
  }
  return agents;
}

/** The agent's task directories that are provably ours; everything else is reported and left alone. */
export async function scanAgentDirectory(options: { agent: AgentDirectory; ownerId: string }): Promise<{ owned: OwnedWorkDirectory[]; skipped: SkippedEntry[] }> {
  const { agent, ownerId } = options;
  const owned: OwnedWorkDirectory[] = [];
  const skipped: SkippedEntry[] = [];
  for (const entry of await readdirOrEmpty(agent.path)) {
    // Dot names are ours (`.gc` tombstones) or nobody's; a task directory is `<taskId>-<random>`.
    if (!isPathSegmentIdentifier(entry.name)) continue;
    const directory = path.join(agent.path, entry.name);
    if (!entry.isDirectory()) {
      skipped.push({ path: directory, reason: 'not_a_plain_directory', detail: entry.isSymbolicLink() ? 'a symlink, never followed' : 'not a directory' });
      continue;
    }
    const verdict = await judgeOwnership({ directory, agent, ownerId });
    if (verdict.kind === 'owned') owned.push({ path: directory, name: entry.name, marker: verdict.marker, lastUsedAtMs: verdict.lastUsedAtMs });
    else skipped.push({ path: directory, reason: verdict.reason, detail: verdict.detail });
  }
  return { owned, skipped };
}

export type OwnershipVerdict =
  | { kind: 'owned'; marker: WorkDirectoryMarker; lastUsedAtMs: number }
  | { kind: 'not_owned'; reason: Exclude<SkippedEntryReason, 'not_a_plain_directory'>; detail: string };

/** Same checks as a follow-up's reuse: a valid marker naming this owner, workspace and agent. */
export async function judgeOwnership(options: { directory: string; agent: AgentDirectory; ownerId: string }): Promise<OwnershipVerdict> {
  const read = await readWorkDirectoryMarker(options.directory);
  if (read.kind === 'absent') return { kind: 'not_owned', reason: 'marker_absent', detail: 'no Switchyard marker' };
  if (read.kind === 'invalid') return { kind: 'not_owned', reason: 'marker_invalid', detail: read.detail };
  const { marker } = read;
  const expected = { ownerId: options.ownerId, workspaceId: options.agent.workspaceId, agentId: options.agent.agentId };
  const mismatched = (Object.keys(expected) as (keyof typeof expected)[]).filter((key) => marker[key] !== expected[key]);
  if (mismatched.length > 0) return { kind: 'not_owned', reason: 'marker_mismatch', detail: `marker differs in ${mismatched.join(', ')}` };
  const lastUsedAtMs = Date.parse(marker.lastUsedAt);
  // Without a readable time there is no age to judge by: keep it rather than guess.
  if (!Number.isFinite(lastUsedAtMs)) return { kind: 'not_owned', reason: 'marker_invalid', detail: 'marker has no readable lastUsedAt' };
  return { kind: 'owned', marker, lastUsedAtMs };
}

async function plainDirectories(directory: string): Promise<string[]> {
  return (await readdirOrEmpty(directory)).filter((entry) => entry.isDirectory() && isPathSegmentIdentifier(entry.name)).map((entry) => entry.name);
}

async function readdirOrEmpty(directory: string): Promise<Dirent[]> {
  try {
    // Dirent types come from lstat: a symlink is never `isDirectory()`.
    return await readdir(directory, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
