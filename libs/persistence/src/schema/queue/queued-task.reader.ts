import type { RepositoryWorkResult, TaskFailureReason, TaskSourceKind, TaskState } from '@switchyard/contracts';
import type { SqlRunner } from '../sql-runner';

/** A task as the queue's `agent_task_queue` view holds it. */
export interface QueuedTask {
  readonly taskId: string;
  readonly workspaceId: string;
  readonly status: TaskState;
  readonly agentId: string;
  readonly runtimeId: string;
  readonly sourceKind: TaskSourceKind;
  readonly issueId: string | null;
  readonly chatSessionId: string | null;
  readonly priority: number;
  readonly attempt: number;
  readonly maxAttempts: number;
  readonly cancelRequested: boolean;
  readonly failureReason: TaskFailureReason | null;
  readonly retryOfTaskId: string | null;
  /** What the latest attempt that reported any left in each repository; empty before (and without) one. */
  readonly repositories: readonly RepositoryWorkResult[];
  readonly enqueuedAt: Date;
  /** `enqueuedAt` to the microsecond, as a list cursor needs it (a Date keeps milliseconds). */
  readonly enqueuedAtKey: string;
  readonly fireAt: Date | null;
  readonly expiresAt: Date | null;
  readonly terminalAt: Date | null;
  readonly updatedAt: Date;
  /**
   * For a live attempt: `reconnecting` while its runtime is judged offline (the attempt is kept for
   * its reconnect grace: the daemon may come back and carry on), else `connected`; null when no
   * attempt is live.
   */
  readonly connection: 'connected' | 'reconnecting' | null;
  /** Since when the queue has judged a reconnecting attempt's runtime offline; null otherwise. */
  readonly reconnectingSince: Date | null;
}

interface QueuedTaskRow {
  task_id: string;
  workspace_id: string;
  status: TaskState;
  agent_id: string;
  runtime_id: string;
  source_kind: TaskSourceKind;
  issue_id: string | null;
  chat_session_id: string | null;
  priority: number;
  attempt: number;
  max_attempts: number;
  cancel_requested: boolean;
  failure_reason: TaskFailureReason | null;
  retry_of_task_id: string | null;
  repositories: RepositoryWorkResult[];
  enqueued_at: Date;
  enqueued_at_key: string;
  fire_at: Date | null;
  expires_at: Date | null;
  terminal_at: Date | null;
  updated_at: Date;
  reconnecting_since: Date | null;
  live: boolean;
}

const COLUMNS = `task_id, workspace_id, status, agent_id, runtime_id, source_kind, issue_id, chat_session_id, priority, attempt,
  max_attempts, cancel_requested, failure_reason, retry_of_task_id, repositories, enqueued_at, fire_at, expires_at, terminal_at, updated_at,
  to_char(enqueued_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as enqueued_at_key,
  case when status in ('dispatched', 'waiting_local_directory', 'running')
    then (select p.offline_since from runtime_presence p where p.runtime_id = agent_task_queue.runtime_id) end as reconnecting_since,
  status in ('dispatched', 'waiting_local_directory', 'running') as live`;

function taskOf(row: QueuedTaskRow): QueuedTask {
  return {
    taskId: row.task_id,
    workspaceId: row.workspace_id,
    status: row.status,
    agentId: row.agent_id,
    runtimeId: row.runtime_id,
    sourceKind: row.source_kind,
    issueId: row.issue_id,
    chatSessionId: row.chat_session_id,
    priority: row.priority,
    attempt: row.attempt,
    maxAttempts: row.max_attempts,
    cancelRequested: row.cancel_requested,
    failureReason: row.failure_reason,
    retryOfTaskId: row.retry_of_task_id,
    repositories: row.repositories,
    enqueuedAt: row.enqueued_at,
    enqueuedAtKey: row.enqueued_at_key,
    fireAt: row.fire_at,
    expiresAt: row.expires_at,
    terminalAt: row.terminal_at,
    updatedAt: row.updated_at,
    connection: row.live ? (row.reconnecting_since === null ? 'connected' : 'reconnecting') : null,
    reconnectingSince: row.reconnecting_since,
  };
}

export interface QueuedTaskFilter {
  readonly workspaceId: string;
  readonly statuses?: readonly TaskState[];
  readonly agentId?: string;
  readonly runtimeId?: string;
  /** Only tasks before this position in (enqueued at, task id) order: a list cursor. */
  readonly before?: { readonly enqueuedAtKey: string; readonly taskId: string };
  readonly limit: number;
}

/** A workspace's tasks, newest first (by enqueue time, then id). */
export async function listQueuedTasks(runner: SqlRunner, filter: QueuedTaskFilter): Promise<QueuedTask[]> {
  const conditions = ['workspace_id = $1'];
  const parameters: unknown[] = [filter.workspaceId];
  const add = (condition: (placeholder: string) => string, value: unknown): void => {
    parameters.push(value);
    conditions.push(condition(`$${parameters.length}`));
  };
  if (filter.statuses) add((placeholder) => `status = any(${placeholder}::text[])`, [...filter.statuses]);
  if (filter.agentId) add((placeholder) => `agent_id = ${placeholder}`, filter.agentId);
  if (filter.runtimeId) add((placeholder) => `runtime_id = ${placeholder}`, filter.runtimeId);
  if (filter.before) {
    parameters.push(filter.before.enqueuedAtKey, filter.before.taskId);
    conditions.push(`(enqueued_at, task_id) < ($${parameters.length - 1}::timestamptz, $${parameters.length})`);
  }
  parameters.push(filter.limit);
  const rows = await runner.query<QueuedTaskRow[]>(
    `select ${COLUMNS} from agent_task_queue where ${conditions.join(' and ')}
      order by enqueued_at desc, task_id desc limit $${parameters.length}`,
    parameters,
  );
  return rows.map(taskOf);
}

/** The task, when it belongs to the workspace. */
export async function findQueuedTask(runner: SqlRunner, options: { readonly workspaceId: string; readonly taskId: string }): Promise<QueuedTask | undefined> {
  const [row] = await runner.query<QueuedTaskRow[]>(`select ${COLUMNS} from agent_task_queue where workspace_id = $1 and task_id = $2`, [options.workspaceId, options.taskId]);
  return row ? taskOf(row) : undefined;
}

/** The task in whatever workspace, for consumers of its events that learn the workspace from it. */
export async function findQueuedTaskById(runner: SqlRunner, taskId: string): Promise<QueuedTask | undefined> {
  const [row] = await runner.query<QueuedTaskRow[]>(`select ${COLUMNS} from agent_task_queue where task_id = $1`, [taskId]);
  return row ? taskOf(row) : undefined;
}

/** The workspace a task belongs to; undefined when there is no such task. */
export async function workspaceOfTask(runner: SqlRunner, taskId: string): Promise<string | undefined> {
  const rows = await runner.query<Array<{ workspace_id: string }>>('select workspace_id from agent_task_queue where task_id = $1', [taskId]);
  return rows[0]?.workspace_id;
}

/** An issue's tasks, oldest first (by enqueue time, then id). */
export async function queuedTasksOfIssue(runner: SqlRunner, options: { readonly workspaceId: string; readonly issueId: string }): Promise<QueuedTask[]> {
  const rows = await runner.query<QueuedTaskRow[]>(
    `select ${COLUMNS} from agent_task_queue where workspace_id = $1 and issue_id = $2 order by enqueued_at, task_id`,
    [options.workspaceId, options.issueId],
  );
  return rows.map(taskOf);
}

/** The ids of an agent's tasks enqueued at or after `since` (all when undefined). */
export async function queuedTaskIdsOfAgent(runner: SqlRunner, options: { readonly workspaceId: string; readonly agentId: string; readonly since: string | undefined }): Promise<string[]> {
  const rows = await runner.query<Array<{ task_id: string }>>(
    `select task_id from agent_task_queue where workspace_id = $1 and agent_id = $2 and ($3::timestamptz is null or enqueued_at >= $3)`,
    [options.workspaceId, options.agentId, options.since ?? null],
  );
  return rows.map((row) => row.task_id);
}
