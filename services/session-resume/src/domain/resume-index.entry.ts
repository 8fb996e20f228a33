import type { TaskFailureReason } from '@switchyard/contracts';

export type TaskOutcome =
  | { kind: 'completed'; at: string }
  | { kind: 'cancelled'; at: string }
  | { kind: 'failed'; at: string; reason: TaskFailureReason; message: string; detail: string | null };

/** One task as the resume index knows it; filled by its events in whatever order they arrive. */
export interface ResumeIndexEntry {
  taskId: string;
  /** From `task.enqueued`; null until it is seen (a session event may come first). */
  enqueued: { at: string; key: string | null; agentId: string; runtimeId: string } | null;
  /** The latest started attempt. */
  run: { attempt: number; at: string; runtimeId: string; workDir: string } | null;
  /**
   * The latest CLI session the task reported (by attempt, then first report time), from
   * `session.pinned` or its end; `pinned` holds where it lives when the pin was seen.
   */
  session: { sessionId: string; attempt: number; at: string; pinned: { attempt: number; runtimeId: string; workDir: string } | null } | null;
  outcome: TaskOutcome | null;
}

/** An attempt ran (or pinned a session): the task belongs to the conversation's history. */
export function hasRun(entry: ResumeIndexEntry): boolean {
  return entry.run !== null || entry.session !== null;
}

/** Where the task's session lives: as pinned, else the started attempt's runtime and work dir. */
export function sessionPlace(entry: ResumeIndexEntry): { runtimeId: string | null; workDir: string | null } {
  const pinned = entry.session?.pinned;
  if (pinned) return { runtimeId: pinned.runtimeId, workDir: pinned.workDir };
  return { runtimeId: entry.run?.runtimeId ?? entry.enqueued?.runtimeId ?? null, workDir: entry.run?.workDir ?? null };
}
