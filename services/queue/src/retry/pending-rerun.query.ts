import type { EntityManager } from 'typeorm';
import type { Task } from '../domain/task.state';

/**
 * Whether other work for the same (agent, issue) or chat session is already waiting or running:
 * a user's rerun wins over an automatic retry of the failed task.
 */
export async function hasPendingRerun(manager: EntityManager, task: Task): Promise<boolean> {
  const source = task.source;
  if (source.kind !== 'issue' && source.kind !== 'chat') return false;
  const [column, value] = source.kind === 'issue' ? ['issue_id', source.issueId] : ['chat_session_id', source.chatSessionId];
  const rows = await manager.query<unknown[]>(
    `select 1 from agent_task_queue
      where agent_id = $1 and ${column} = $2 and task_id <> $3
        and status in ('queued', 'deferred', 'dispatched', 'waiting_local_directory', 'running')
      limit 1`,
    [task.agentId, value, task.taskId],
  );
  return rows.length > 0;
}
