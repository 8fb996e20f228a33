import type { AlongsideStatement } from '@switchyard/event-store';

/** The agent's concurrency limit as its latest enqueued snapshot says, sent with the enqueue's events; the claim reads it. */
export function agentLimitStatement(agentId: string, maxConcurrentTasks: number): AlongsideStatement {
  return (first) => ({
    sql: `insert into agent_limit (agent_id, max_concurrent_tasks, updated_at) values ($${first}, $${first + 1}, now())
     on conflict (agent_id) do update set max_concurrent_tasks = excluded.max_concurrent_tasks, updated_at = now()`,
    parameters: [agentId, maxConcurrentTasks],
  });
}
