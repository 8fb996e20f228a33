import { escapedDescendantGroups } from './escaped-descendants';
import { readProcessTable } from './process-table';

export interface KillProcessGroupOptions {
  /** The group leader's pid, which is the group id of a child spawned with `detached: true`. */
  readonly processGroupId: number;
  /** Time between SIGTERM and SIGKILL. */
  readonly graceMs: number;
  readonly pollIntervalMs?: number;
  /** How long to wait for the group to vanish after SIGKILL before giving up. */
  readonly afterKillTimeoutMs?: number;
}

export interface ProcessGroupKillOutcome {
  /** SIGKILL was needed. */
  readonly forced: boolean;
  /** False only if some member outlived SIGKILL (uninterruptible sleep, for instance). */
  readonly groupGone: boolean;
}

const delay = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

function sendToGroup(processGroupId: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-processGroupId, signal);
  } catch {
    // ESRCH: already gone. Anything else (EPERM) cannot be fixed here; the wait below reports it.
  }
}

/**
 * Whether any live process remains in the group. A member whose parent died and which nobody has
 * reaped yet is a zombie: signal 0 still finds it, but it does nothing, so on Linux /proc decides.
 */
export function isProcessGroupAlive(processGroupId: number): boolean {
  try {
    process.kill(-processGroupId, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return process.platform !== 'linux' || hasLiveMemberInProc(processGroupId);
}

function hasLiveMemberInProc(processGroupId: number): boolean {
  return readProcessTable().some((entry) => entry.processGroupId === processGroupId);
}

async function waitUntilGone(processGroupId: number, timeoutMs: number, pollIntervalMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!isProcessGroupAlive(processGroupId)) return true;
    if (Date.now() >= deadline) return false;
    await delay(pollIntervalMs);
  }
}

async function waitUntilAllGone(processGroupIds: readonly number[], timeoutMs: number, pollIntervalMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (const processGroupId of processGroupIds) {
    if (!(await waitUntilGone(processGroupId, Math.max(0, deadline - Date.now()), pollIntervalMs))) return false;
  }
  return true;
}

/**
 * SIGTERM to the whole group and to the groups its descendants escaped to (escaped-descendants.ts),
 * SIGKILL after the grace, resolved once no member is left. Never rejects.
 */
export async function killProcessGroup(options: KillProcessGroupOptions): Promise<ProcessGroupKillOutcome> {
  const pollIntervalMs = options.pollIntervalMs ?? 20;
  const groups = new Set([options.processGroupId, ...escapedDescendantGroups(options.processGroupId)]);
  for (const group of groups) sendToGroup(group, 'SIGTERM');
  if (await waitUntilAllGone([...groups], options.graceMs, pollIntervalMs)) return { forced: false, groupGone: true };
  // Escapes made during the grace, found while the run's group still has members.
  for (const group of escapedDescendantGroups(options.processGroupId)) groups.add(group);
  for (const group of groups) sendToGroup(group, 'SIGKILL');
  const groupGone = await waitUntilAllGone([...groups], options.afterKillTimeoutMs ?? 5000, pollIntervalMs);
  return { forced: true, groupGone };
}
