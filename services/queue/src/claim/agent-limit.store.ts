import type { EntityManager } from 'typeorm';

/** The agent's concurrency limit as its latest enqueued snapshot says; the claim reads it. */
export async function recordAgentLimit(manager: EntityManager, agentId: string, maxConcurrentTasks: number): Promise<void> {
  await manager.query(
    `insert into agent_limit (agent_id, max_concurrent_tasks, updated_at) values ($1, $2, now())
     on conflict (agent_id) do update set max_concurrent_tasks = excluded.max_concurrent_tasks, updated_at = now()`,
    [agentId, maxConcurrentTasks],
  );
}
