import type { EntityManager } from 'typeorm';
import type { Task } from '../domain/task.state';

/** Longest chain followed; attempts are bounded far below this, it only guards a cycle. */
const MAXIMUM_CHAIN = 64;

/** How many automatic retries preceded this task: the length of its `retry_of_task_id` chain. */
export async function countPriorRetries(manager: EntityManager, task: Task): Promise<number> {
  if (task.retryOfTaskId === null) return 0;
  const rows = await manager.query<Array<{ depth: string | number }>>(
    `with recursive chain(task_id, retry_of_task_id, depth) as (
       select task_id, retry_of_task_id, 1 from agent_task_queue where task_id = $1
       union all
       select parent.task_id, parent.retry_of_task_id, chain.depth + 1
         from agent_task_queue parent join chain on parent.task_id = chain.retry_of_task_id
        where chain.depth < $2
     )
     select count(*) as depth from chain`,
    [task.retryOfTaskId, MAXIMUM_CHAIN],
  );
  return Number(rows[0]?.depth ?? 0);
}
