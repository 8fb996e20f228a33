import { isTerminalTaskState } from '@switchyard/contracts';
import type { AlongsideStatement } from '@switchyard/event-store';
import type { Task } from '../domain/task.state';
import { revokeTaskTokensStatement } from './task-token';

/**
 * Writes tasks' current state into `agent_task_queue`, as a statement sent with the insert of their
 * events (see `AlongsideStatement`): the view the claim query reads can never disagree with the
 * event log. A claim passes the hashes of its attempts' lease tokens, written into the same rows:
 * one statement may not change a row twice. A task that ended takes its tokens with it.
 */
export function taskRowsStatements(tasks: readonly Task[], options: { readonly leaseTokenHashes?: ReadonlyMap<string, string> } = {}): AlongsideStatement[] {
  if (tasks.length === 0) return [];
  const ended = tasks.filter((task) => isTerminalTaskState(task.status)).map((task) => task.taskId);
  return [(first) => upsertTaskRows(first, tasks, options.leaseTokenHashes), ...(ended.length > 0 ? [revokeTaskTokensStatement(ended)] : [])];
}

function upsertTaskRows(first: number, tasks: readonly Task[], leaseTokenHashes: ReadonlyMap<string, string> | undefined): { sql: string; parameters: unknown[] } {
  const parameters: unknown[] = [];
  const withLease = leaseTokenHashes !== undefined;
  const columns = PROJECTED_COLUMNS + (withLease ? 1 : 0);
  const tuples = tasks.map((task) => {
    const base = first + parameters.length;
    parameters.push(...projectedColumns(task));
    if (withLease) parameters.push(leaseTokenHashes.get(task.taskId) ?? null);
    const placeholders = Array.from({ length: columns }, (_, index) => `$${base + index}${index === REPOSITORIES_COLUMN ? '::jsonb' : ''}`);
    return `(${placeholders.join(', ')}, now())`;
  });
  return {
    sql: `insert into agent_task_queue (
       task_id, workspace_id, agent_id, runtime_id, source_kind, issue_id, chat_session_id, priority,
       status, attempt, max_attempts, enqueued_at, fire_at, expires_at, daemon_id, start_by,
       lease_expires_at, cancel_requested, failure_reason, terminal_at, retry_of_task_id, repositories, version${withLease ? ', lease_token_hash' : ''}, updated_at)
     values ${tuples.join(', ')}
     on conflict (task_id) do update set
       status = excluded.status, attempt = excluded.attempt, priority = excluded.priority,
       fire_at = excluded.fire_at, expires_at = excluded.expires_at, daemon_id = excluded.daemon_id,
       start_by = excluded.start_by, lease_expires_at = excluded.lease_expires_at,
       cancel_requested = excluded.cancel_requested, failure_reason = excluded.failure_reason,
       terminal_at = excluded.terminal_at, repositories = excluded.repositories, version = excluded.version,${withLease ? ' lease_token_hash = excluded.lease_token_hash,' : ''} updated_at = now()`,
    parameters,
  };
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
