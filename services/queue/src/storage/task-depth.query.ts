import type { DataSource } from 'typeorm';
import { TASK_STATES, isTerminalTaskState, type TaskState } from '@switchyard/contracts';

/** The states a task is in until it ends: the ones the queue's depth is made of. */
export const UNFINISHED_TASK_STATES: readonly TaskState[] = TASK_STATES.filter((state) => !isTerminalTaskState(state));

/**
 * How many tasks are in each unfinished state, every one of them listed (0 when none): one
 * grouped count over `agent_task_queue`. Ended tasks are left out: they only grow, and the
 * duration histogram (`switchyard_task_duration_seconds_count`) counts them as they end.
 */
export async function countUnfinishedTasksByState(dataSource: DataSource): Promise<ReadonlyMap<TaskState, number>> {
  const rows = await dataSource.query<Array<{ status: TaskState; tasks: number }>>(
    'select status, count(*)::int as tasks from agent_task_queue where status = any($1::text[]) group by status',
    [UNFINISHED_TASK_STATES],
  );
  const counts = new Map<TaskState, number>(UNFINISHED_TASK_STATES.map((state) => [state, 0]));
  for (const row of rows) counts.set(row.status, Number(row.tasks));
  return counts;
}
