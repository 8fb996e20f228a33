import { attemptKey, readClaimedAttemptDaemons, type TaskAttempt } from '../record/attempt-claims.reader';
import type { SqlRunner } from '../sql-runner';

/** Who holds each attempt, by `attemptKey`: its daemon, or undefined when nobody (yet) does. */
export type AttemptHolders = ReadonlyMap<string, string | undefined>;

/**
 * The daemon that holds (or held) each attempt. The current attempt of a task is its
 * `agent_task_queue` row's (`attempt`, `daemon_id`), written by the claim before the daemon hears
 * of it; an earlier one is named by that attempt's `task.claimed` event in the record. A later
 * attempt than the row's, an unclaimed one, or an unknown task has no holder. One query for the
 * current attempts, one more only when earlier ones are asked for.
 */
export async function readAttemptHolders(runner: SqlRunner, pairs: readonly TaskAttempt[]): Promise<AttemptHolders> {
  const holders = new Map<string, string | undefined>();
  const wanted = distinct(pairs);
  if (wanted.length === 0) return holders;
  const rows = await runner.query<Array<{ task_id: string; attempt: number; daemon_id: string | null }>>(
    'select task_id, attempt, daemon_id from agent_task_queue where task_id = any($1::text[])',
    [[...new Set(wanted.map((pair) => pair.taskId))]],
  );
  const current = new Map(rows.map((row) => [row.task_id, row]));
  const earlier: TaskAttempt[] = [];
  for (const pair of wanted) {
    const row = current.get(pair.taskId);
    if (row && pair.attempt < row.attempt) earlier.push(pair);
    else holders.set(attemptKey(pair), row && pair.attempt === row.attempt ? (row.daemon_id ?? undefined) : undefined);
  }
  const claimed = await readClaimedAttemptDaemons(runner, earlier);
  for (const pair of earlier) holders.set(attemptKey(pair), claimed.get(attemptKey(pair)));
  return holders;
}

function distinct(pairs: readonly TaskAttempt[]): TaskAttempt[] {
  const byKey = new Map<string, TaskAttempt>();
  for (const pair of pairs) byKey.set(attemptKey(pair), { taskId: pair.taskId, attempt: pair.attempt });
  return [...byKey.values()];
}
