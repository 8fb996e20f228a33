import type { EntityManager } from 'typeorm';
import { isTerminalTaskState } from '@switchyard/contracts';
import type { Task } from '../domain/task.state';
import { revokeTaskTokens } from './task-token';

/**
 * Writes a task's current state into `agent_task_queue`, inside the transaction that appends its
 * events: the view the claim query reads can never disagree with the event log.
 */
export async function projectTaskRow(manager: EntityManager, task: Task): Promise<void> {
  await projectTaskRows(manager, [task]);
}

/** `projectTaskRow` for several tasks with one statement (a claim's batch). */
export async function projectTaskRows(manager: EntityManager, tasks: readonly Task[]): Promise<void> {
  if (tasks.length === 0) return;
  const parameters: unknown[] = [];
  const tuples = tasks.map((task) => {
    const base = parameters.length;
    parameters.push(...projectedColumns(task));
    const placeholders = Array.from({ length: PROJECTED_COLUMNS }, (_, index) => `$${base + index + 1}${index === REPOSITORIES_COLUMN ? '::jsonb' : ''}`);
    return `(${placeholders.join(', ')}, now())`;
  });
  await manager.query(
    `insert into agent_task_queue (
       task_id, workspace_id, agent_id, runtime_id, source_kind, issue_id, chat_session_id, priority,
       status, attempt, max_attempts, enqueued_at, fire_at, expires_at, daemon_id, start_by,
       lease_expires_at, cancel_requested, failure_reason, terminal_at, retry_of_task_id, repositories, version, updated_at)
     values ${tuples.join(', ')}
     on conflict (task_id) do update set
       status = excluded.status, attempt = excluded.attempt, priority = excluded.priority,
       fire_at = excluded.fire_at, expires_at = excluded.expires_at, daemon_id = excluded.daemon_id,
       start_by = excluded.start_by, lease_expires_at = excluded.lease_expires_at,
       cancel_requested = excluded.cancel_requested, failure_reason = excluded.failure_reason,
       terminal_at = excluded.terminal_at, repositories = excluded.repositories, version = excluded.version, updated_at = now()`,
    parameters,
  );
  for (const task of tasks) {
    if (isTerminalTaskState(task.status)) await revokeTaskTokens(manager, task.taskId);
  }
}

const PROJECTED_COLUMNS = 23;
/** Index of `repositories` among the projected columns: sent as JSON text, cast to jsonb. */
const REPOSITORIES_COLUMN = 21;

function projectedColumns(task: Task): unknown[] {
  const issueId = task.source.kind === 'issue' ? task.source.issueId : null;
  const chatSessionId = task.source.kind === 'chat' ? task.source.chatSessionId : null;
  const failureReason = task.outcome?.status === 'failed' ? task.outcome.reason : null;
  return [
    task.taskId,
    task.workspaceId,
    task.agentId,
    task.runtimeId,
    task.source.kind,
    issueId,
    chatSessionId,
    task.priority,
    task.status,
    task.attempt,
    task.maxAttempts,
    task.enqueuedAt,
    task.fireAt,
    task.expiresAt,
    task.daemonId,
    task.startBy,
    task.leaseExpiresAt,
    task.cancelRequest !== null,
    failureReason,
    task.outcome?.at ?? null,
    task.retryOfTaskId,
    JSON.stringify(task.repositories),
    task.version,
  ];
}
