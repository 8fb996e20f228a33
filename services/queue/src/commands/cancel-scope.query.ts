import type { EntityManager } from 'typeorm';
import type { TaskCancelScope } from '@switchyard/contracts';

/** Unfinished tasks a bulk cancel reaches, oldest first, locked for the cancel's transaction. */
export async function findUnfinishedTasks(manager: EntityManager, scope: TaskCancelScope): Promise<string[]> {
  const [condition, parameters] = conditionOf(scope);
  const rows = await manager.query<Array<{ task_id: string }>>(
    `select task_id from agent_task_queue
      where ${condition} and status in ('queued', 'deferred', 'dispatched', 'waiting_local_directory', 'running')
      order by enqueued_at, task_id
      for update`,
    parameters,
  );
  return rows.map((row) => row.task_id);
}

function conditionOf(scope: TaskCancelScope): [string, unknown[]] {
  switch (scope.kind) {
    case 'issue':
      return scope.agentId === null ? ['issue_id = $1', [scope.issueId]] : ['issue_id = $1 and agent_id = $2', [scope.issueId, scope.agentId]];
    case 'agent':
      return ['agent_id = $1', [scope.agentId]];
    case 'chat_session':
      return ['chat_session_id = $1', [scope.chatSessionId]];
  }
}
