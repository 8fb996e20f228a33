import type { SqlRunner } from '../sql-runner';

/** One attempt of one task. */
export interface TaskAttempt {
  readonly taskId: string;
  readonly attempt: number;
}

/** The key a map of attempts is read by: `attemptKey({ taskId, attempt })`. */
export function attemptKey(pair: TaskAttempt): string {
  return JSON.stringify([pair.taskId, pair.attempt]);
}

/**
 * The daemon each attempt was claimed by, as its `task.claimed` event names it; attempts with no
 * such event are absent. One query for the whole list.
 */
export async function readClaimedAttemptDaemons(runner: SqlRunner, pairs: readonly TaskAttempt[]): Promise<Map<string, string>> {
  const claimed = new Map<string, string>();
  if (pairs.length === 0) return claimed;
  // Compared as text: a payload's attempt is JSON, and no cast may fail on a row of another shape.
  const rows = await runner.query<Array<{ task_id: string; attempt: string; daemon_id: string | null }>>(
    `select wanted.task_id, wanted.attempt, claim.payload -> 'payload' ->> 'daemonId' as daemon_id
       from unnest($1::text[], $2::text[]) as wanted(task_id, attempt)
       join outbox_event claim
         on claim.aggregate_id = wanted.task_id and claim.type = 'task.claimed'
        and claim.payload -> 'payload' ->> 'attempt' = wanted.attempt`,
    [pairs.map((pair) => pair.taskId), pairs.map((pair) => String(pair.attempt))],
  );
  for (const row of rows) {
    if (row.daemon_id !== null) claimed.set(attemptKey({ taskId: row.task_id, attempt: Number(row.attempt) }), row.daemon_id);
  }
  return claimed;
}
