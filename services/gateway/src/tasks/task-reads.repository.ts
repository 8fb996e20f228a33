import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Actor, AgentSnapshot, TaskEnqueuedPayload, TaskFailureReason, TaskSourceKind, TaskState } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { Redactor } from '@switchyard/redaction';
import { isoOf, isoOrNull } from '../http/api-schemas';
import { decodeTaskCursor, encodeTaskCursor } from './task-list.cursor';
import { taskTextRedactor } from './task-text.redaction';
import type { TaskDetail, TaskListQuery, TaskSummary } from './task.schemas';

interface TaskRow {
  task_id: string;
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
  enqueued_at: Date;
  enqueued_at_key: string;
  fire_at: Date | null;
  expires_at: Date | null;
  terminal_at: Date | null;
  updated_at: Date;
}

interface TaskEventRow {
  type: 'task.enqueued' | 'task.started' | 'task.failed' | 'task.expired' | 'task.cancelled';
  occurred_at: Date;
  payload: Record<string, unknown>;
}

const TASK_COLUMNS = `task_id, status, agent_id, runtime_id, source_kind, issue_id, chat_session_id, priority, attempt, max_attempts,
  cancel_requested, failure_reason, retry_of_task_id, enqueued_at, fire_at, expires_at, terminal_at, updated_at,
  to_char(enqueued_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as enqueued_at_key`;

function summaryOf(row: TaskRow): TaskSummary {
  return {
    taskId: row.task_id,
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
    enqueuedAt: isoOf(row.enqueued_at),
    terminalAt: isoOrNull(row.terminal_at),
    updatedAt: isoOf(row.updated_at),
  };
}

/** A task as it was enqueued (from its `task.enqueued` event in the record), for rerun. */
export interface EnqueuedTask {
  readonly status: TaskState;
  readonly payload: TaskEnqueuedPayload;
}

/**
 * Task reads for clients: the state from the queue's `agent_task_queue` view, the prompt and the
 * outcome details from the task's events in `outbox_event` (the queue's record). Every query names
 * the caller's workspace; a task of another workspace does not exist. Task text leaves redacted
 * (`taskTextRedactor`), as the timeline does; the record keeps it as written, for reruns.
 */
@Injectable()
export class TaskReadsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async list(workspaceId: string, query: TaskListQuery): Promise<{ tasks: TaskSummary[]; nextCursor: string | null }> {
    const conditions = ['workspace_id = $1'];
    const parameters: unknown[] = [workspaceId];
    const add = (condition: (placeholder: string) => string, value: unknown): void => {
      parameters.push(value);
      conditions.push(condition(`$${parameters.length}`));
    };
    if (query.status) add((placeholder) => `status = any(${placeholder}::text[])`, query.status);
    if (query.agentId) add((placeholder) => `agent_id = ${placeholder}`, query.agentId);
    if (query.runtimeId) add((placeholder) => `runtime_id = ${placeholder}`, query.runtimeId);
    if (query.cursor) {
      const position = decodeTaskCursor(query.cursor);
      parameters.push(position.enqueuedAt, position.taskId);
      conditions.push(`(enqueued_at, task_id) < ($${parameters.length - 1}::timestamptz, $${parameters.length})`);
    }
    parameters.push(query.limit + 1);
    const rows = await this.dataSource.query<TaskRow[]>(
      `select ${TASK_COLUMNS} from agent_task_queue where ${conditions.join(' and ')}
        order by enqueued_at desc, task_id desc limit $${parameters.length}`,
      parameters,
    );
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    const nextCursor = rows.length > query.limit && last ? encodeTaskCursor({ enqueuedAt: last.enqueued_at_key, taskId: last.task_id }) : null;
    return { tasks: page.map(summaryOf), nextCursor };
  }

  async exists(workspaceId: string, taskId: string): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>('select 1 from agent_task_queue where workspace_id = $1 and task_id = $2', [workspaceId, taskId]);
    return rows.length > 0;
  }

  async detail(workspaceId: string, taskId: string): Promise<TaskDetail | undefined> {
    const [row] = await this.dataSource.query<TaskRow[]>(`select ${TASK_COLUMNS} from agent_task_queue where workspace_id = $1 and task_id = $2`, [
      workspaceId,
      taskId,
    ]);
    if (!row) return undefined;
    const events = await this.dataSource.query<TaskEventRow[]>(
      `select type, occurred_at, payload -> 'payload' as payload from outbox_event
        where aggregate_id = $1 and type in ('task.enqueued', 'task.started', 'task.failed', 'task.expired', 'task.cancelled')
        order by version`,
      [taskId],
    );
    const latest = (type: TaskEventRow['type']): TaskEventRow | undefined => events.filter((event) => event.type === type).at(-1);
    const enqueued = latest('task.enqueued')?.payload as TaskEnqueuedPayload | undefined;
    if (!enqueued) return undefined;
    const started = latest('task.started');
    const failed = latest('task.failed')?.payload as { reason: TaskFailureReason; message: string } | undefined;
    const expired = latest('task.expired')?.payload as { message: string } | undefined;
    const cancelled = latest('task.cancelled')?.payload as { cancelledBy: Actor; reason: string | null } | undefined;
    // A prompt may quote a key, and a failure message the CLI's stderr: the same redaction as the timeline.
    const redact = taskTextRedactor(enqueued.agent);
    return {
      ...summaryOf(row),
      // Only the name of the agent snapshot: it holds the agent's env in clear.
      agentName: enqueued.agent.name,
      source: enqueued.source,
      prompt: redact(enqueued.prompt),
      forceFreshSession: enqueued.forceFreshSession,
      fireAt: isoOrNull(row.fire_at),
      expiresAt: isoOrNull(row.expires_at),
      startedAt: started ? isoOf(started.occurred_at) : null,
      failure:
        row.status !== 'failed' ? null : failed ? { reason: failed.reason, message: redact(failed.message) } : expired ? { reason: 'expired', message: redact(expired.message) } : null,
      cancellation: row.status === 'cancelled' && cancelled ? { by: cancelled.cancelledBy, reason: typeof cancelled.reason === 'string' ? redact(cancelled.reason) : null } : null,
    };
  }

  /**
   * The redactor of a task's text (its agent snapshot's secrets as exact values, plus the patterns),
   * for writers that show a task's output to clients (chat replies, `child_done` notes). A task
   * without its `task.enqueued` event still gets the pattern redaction.
   */
  async textRedactor(taskId: string): Promise<Redactor> {
    const [row] = await this.dataSource.query<Array<{ agent: AgentSnapshot | null }>>(
      `select payload -> 'payload' -> 'agent' as agent from outbox_event where aggregate_id = $1 and type = 'task.enqueued' order by version limit 1`,
      [taskId],
    );
    return taskTextRedactor(row?.agent ?? undefined);
  }

  /** The task's status and what it was enqueued with; undefined outside the workspace. */
  async enqueued(workspaceId: string, taskId: string): Promise<EnqueuedTask | undefined> {
    const [row] = await this.dataSource.query<Array<{ status: TaskState; payload: TaskEnqueuedPayload }>>(
      `select queue.status, event.payload -> 'payload' as payload
         from agent_task_queue queue
         join outbox_event event on event.aggregate_id = queue.task_id and event.type = 'task.enqueued'
        where queue.workspace_id = $1 and queue.task_id = $2`,
      [workspaceId, taskId],
    );
    return row ? { status: row.status, payload: row.payload } : undefined;
  }
}
