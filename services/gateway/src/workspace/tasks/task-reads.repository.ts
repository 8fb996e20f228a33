import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Actor, TaskEnqueuedPayload, TaskFailureReason, TaskState } from '@switchyard/contracts';
import {
  DATA_SOURCE,
  findQueuedTask,
  listQueuedTasks,
  readAggregateEvents,
  readFirstEventPayload,
  type QueuedTask,
  type StoredAggregateEvent,
} from '@switchyard/persistence';
import type { Redactor } from '@switchyard/redaction';
import { isoOf, isoOrNull } from '../common/api-schemas';
import { decodeTaskCursor, encodeTaskCursor } from './task-list.cursor';
import { taskTextRedactor } from './task-text.redaction';
import { AgentsRepository } from '../agents/agents.repository';
import { SecretsRepository } from '../secrets/secrets.repository';
import { agentSnapshotOf } from './agent-snapshot.builder';
import type { TaskDetail, TaskListQuery, TaskSummary } from './task.schemas';

type TaskEventType = 'task.enqueued' | 'task.started' | 'task.failed' | 'task.expired' | 'task.cancelled';
const DETAIL_EVENT_TYPES: readonly TaskEventType[] = ['task.enqueued', 'task.started', 'task.failed', 'task.expired', 'task.cancelled'];

function summaryOf(task: QueuedTask): TaskSummary {
  return {
    taskId: task.taskId,
    status: task.status,
    agentId: task.agentId,
    runtimeId: task.runtimeId,
    sourceKind: task.sourceKind,
    issueId: task.issueId,
    chatSessionId: task.chatSessionId,
    priority: task.priority,
    attempt: task.attempt,
    maxAttempts: task.maxAttempts,
    cancelRequested: task.cancelRequested,
    failureReason: task.failureReason,
    retryOfTaskId: task.retryOfTaskId,
    repositories: [...task.repositories],
    connection: task.connection,
    reconnectingSince: isoOrNull(task.reconnectingSince),
    enqueuedAt: isoOf(task.enqueuedAt),
    terminalAt: isoOrNull(task.terminalAt),
    updatedAt: isoOf(task.updatedAt),
  };
}

/** A task as it was enqueued (from its `task.enqueued` event in the record), for rerun. */
export interface EnqueuedTask {
  readonly status: TaskState;
  readonly payload: TaskEnqueuedPayload;
}

/**
 * Task reads for clients: the state from the queue's view of the task, the prompt and the outcome
 * details from the task's events in the record (both through their owners' readers). Every query names
 * the caller's workspace; a task of another workspace does not exist. Task text leaves redacted
 * (`taskTextRedactor`), as the timeline does; the record keeps it as written, for reruns.
 */
@Injectable()
export class TaskReadsRepository {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly agents: AgentsRepository,
    private readonly secrets: SecretsRepository,
  ) {}

  async list(workspaceId: string, query: TaskListQuery): Promise<{ tasks: TaskSummary[]; nextCursor: string | null }> {
    const position = query.cursor ? decodeTaskCursor(query.cursor) : undefined;
    const tasks = await listQueuedTasks(this.dataSource, {
      workspaceId,
      statuses: query.status,
      agentId: query.agentId,
      runtimeId: query.runtimeId,
      before: position ? { enqueuedAtKey: position.enqueuedAt, taskId: position.taskId } : undefined,
      limit: query.limit + 1,
    });
    const page = tasks.slice(0, query.limit);
    const last = page[page.length - 1];
    const nextCursor = tasks.length > query.limit && last ? encodeTaskCursor({ enqueuedAt: last.enqueuedAtKey, taskId: last.taskId }) : null;
    return { tasks: page.map(summaryOf), nextCursor };
  }

  async exists(workspaceId: string, taskId: string): Promise<boolean> {
    return (await findQueuedTask(this.dataSource, { workspaceId, taskId })) !== undefined;
  }

  async detail(workspaceId: string, taskId: string): Promise<TaskDetail | undefined> {
    const task = await findQueuedTask(this.dataSource, { workspaceId, taskId });
    if (!task) return undefined;
    const events = await readAggregateEvents(this.dataSource, { aggregateId: taskId, types: DETAIL_EVENT_TYPES });
    const latest = (type: TaskEventType): StoredAggregateEvent | undefined => events.filter((event) => event.type === type).at(-1);
    const enqueued = latest('task.enqueued')?.payload as TaskEnqueuedPayload | undefined;
    if (!enqueued) return undefined;
    const started = latest('task.started');
    const failed = latest('task.failed')?.payload as { reason: TaskFailureReason; message: string } | undefined;
    const expired = latest('task.expired')?.payload as { message: string } | undefined;
    const cancelled = latest('task.cancelled')?.payload as { cancelledBy: Actor; reason: string | null } | undefined;
    // A prompt may quote a key, and a failure message the CLI's stderr: the same redaction as the timeline.
    const redact = await this.redactorOf(enqueued);
    return {
      ...summaryOf(task),
      // Only the name of the agent snapshot (an older event holds the agent's env in clear).
      agentName: enqueued.agent.name,
      source: enqueued.source,
      prompt: redact(enqueued.prompt),
      forceFreshSession: enqueued.forceFreshSession,
      fireAt: isoOrNull(task.fireAt),
      expiresAt: isoOrNull(task.expiresAt),
      startedAt: started ? isoOf(started.occurredAt) : null,
      failure:
        task.status !== 'failed' ? null : failed ? { reason: failed.reason, message: redact(failed.message) } : expired ? { reason: 'expired', message: redact(expired.message) } : null,
      cancellation: task.status === 'cancelled' && cancelled ? { by: cancelled.cancelledBy, reason: typeof cancelled.reason === 'string' ? redact(cancelled.reason) : null } : null,
    };
  }

  /**
   * The redactor of a task's text (its agent snapshot's secrets as exact values, plus the patterns),
   * for writers that show a task's output to clients (chat replies, `child_done` notes). A task
   * without its `task.enqueued` event still gets the pattern redaction.
   */
  async textRedactor(taskId: string): Promise<Redactor> {
    const enqueued = (await readFirstEventPayload(this.dataSource, { aggregateId: taskId, type: 'task.enqueued' })) as TaskEnqueuedPayload | undefined;
    return enqueued ? this.redactorOf(enqueued) : taskTextRedactor();
  }

  /**
   * The event names the agent's secrets by reference only, so their values come from the agent as
   * it is now (its current secrets), next to any value an event from before references kept; the
   * repositories' credentials likewise, as every secret value of the workspace.
   */
  private async redactorOf(enqueued: Pick<TaskEnqueuedPayload, 'workspaceId' | 'agentId' | 'agent'>): Promise<Redactor> {
    const agent = await this.agents.find(enqueued.workspaceId, enqueued.agentId);
    const workspaceSecrets = { env: {}, mcpConfig: null, repositories: (await this.secrets.openableValues(enqueued.workspaceId)).map((secret) => ({ credential: { secret } })) };
    return taskTextRedactor(enqueued.agent, workspaceSecrets, ...(agent ? [agentSnapshotOf(agent)] : []));
  }

  /** The task's status and what it was enqueued with; undefined outside the workspace. */
  async enqueued(workspaceId: string, taskId: string): Promise<EnqueuedTask | undefined> {
    const task = await findQueuedTask(this.dataSource, { workspaceId, taskId });
    const payload = task && (await readFirstEventPayload(this.dataSource, { aggregateId: taskId, type: 'task.enqueued' }));
    return task && payload ? { status: task.status, payload: payload as unknown as TaskEnqueuedPayload } : undefined;
  }
}
