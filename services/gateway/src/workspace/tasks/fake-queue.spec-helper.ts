import {
  COMMAND_CATALOG,
  commandSuccess,
  isTerminalTaskState,
  subjects,
  type CommandOf,
  type CommandReply,
  type TaskCancelMatchingResult,
  type TaskState,
  type TaskStateResult,
} from '@switchyard/contracts';
import { serveRequests, type RequestServer } from '@switchyard/messaging';
import type { GatewayTestKit } from '../../gateway-test.spec-helper';

/**
 * Stands in for the queue service on NATS (services never import services, tests included):
 * answers `task.enqueue`, `task.cancel` and `task.cancel_matching` in the `queue` group and writes what the queue would
 * (the `agent_task_queue` row and the task's events), so the gateway's reads see the result.
 */
/** The queue's answer while it restarts: what a fake queue replies to test the gateway's 503 path. */
export const QUEUE_UNAVAILABLE_REPLY = { ok: false as const, error: { code: 'unavailable' as const, message: 'queue is restarting', retryable: true } };

export class FakeQueue {
  readonly enqueued: Array<CommandOf<'task.enqueue'>> = [];
  readonly cancels: Array<CommandOf<'task.cancel'>> = [];
  readonly bulkCancels: Array<CommandOf<'task.cancel_matching'>> = [];
  /** When set, the next commands are answered with this instead. */
  refusal: CommandReply<never> | undefined;
  private readonly taskByRequestId = new Map<string, string>();
  private servers: RequestServer[] = [];

  constructor(private readonly kit: GatewayTestKit) {}

  start(): void {
    this.servers = [
      serveRequests(this.kit.messaging, {
        subject: subjects.command('task.enqueue'),
        queueGroup: 'queue',
        requestSchema: COMMAND_CATALOG['task.enqueue'].request,
        handlerReturns: 'reply',
        handler: (envelope: CommandOf<'task.enqueue'>) => this.enqueue(envelope),
      }),
      serveRequests(this.kit.messaging, {
        subject: subjects.command('task.cancel'),
        queueGroup: 'queue',
        requestSchema: COMMAND_CATALOG['task.cancel'].request,
        handlerReturns: 'reply',
        handler: (envelope: CommandOf<'task.cancel'>) => this.cancel(envelope),
      }),
      serveRequests(this.kit.messaging, {
        subject: subjects.command('task.cancel_matching'),
        queueGroup: 'queue',
        requestSchema: COMMAND_CATALOG['task.cancel_matching'].request,
        handlerReturns: 'reply',
        handler: (envelope: CommandOf<'task.cancel_matching'>) => this.cancelMatching(envelope),
      }),
    ];
  }

  async stop(): Promise<void> {
    await Promise.all(this.servers.map((server) => server.stop()));
    this.servers = [];
  }

  private async enqueue(envelope: CommandOf<'task.enqueue'>): Promise<CommandReply<TaskStateResult>> {
    this.enqueued.push(envelope);
    if (this.refusal) return this.refusal;
    const earlier = this.taskByRequestId.get(envelope.requestId);
    if (earlier) return commandSuccess({ taskId: earlier, state: 'queued' as const }, { alreadyApplied: true });
    const { workspaceId, fireAt: _fireAt, ...rest } = envelope.payload;
    const taskId = await this.kit.insertTask({ workspaceId, enqueued: { ...rest, maxAttempts: rest.maxAttempts ?? 2, expiresAt: null, retryOfTaskId: null } });
    this.taskByRequestId.set(envelope.requestId, taskId);
    return commandSuccess({ taskId, state: 'queued' as const });
  }

  /** Cancels the unfinished tasks of the scope's issue or agent, as the queue would (running ones at once here). */
  private async cancelMatching(envelope: CommandOf<'task.cancel_matching'>): Promise<CommandReply<TaskCancelMatchingResult>> {
    this.bulkCancels.push(envelope);
    if (this.refusal) return this.refusal;
    const { scope, requestedBy, reason } = envelope.payload;
    const rows =
      scope.kind === 'issue'
        ? await this.kit.query<{ task_id: string; status: TaskState; attempt: number }>('select task_id, status, attempt from agent_task_queue where issue_id = $1', [scope.issueId])
        : scope.kind === 'agent'
          ? await this.kit.query<{ task_id: string; status: TaskState; attempt: number }>('select task_id, status, attempt from agent_task_queue where agent_id = $1', [scope.agentId])
          : [];
    const tasks: Array<{ taskId: string; state: TaskState }> = [];
    for (const row of rows.filter((candidate) => !isTerminalTaskState(candidate.status))) {
      await this.kit.setTaskStatus(row.task_id, 'cancelled');
      await this.kit.appendTaskEvent('task.cancelled', { taskId: row.task_id, attempt: row.attempt > 0 ? row.attempt : null, cancelledBy: requestedBy, reason });
      tasks.push({ taskId: row.task_id, state: 'cancelled' });
    }
    return commandSuccess({ tasks });
  }

  private async cancel(envelope: CommandOf<'task.cancel'>): Promise<CommandReply<TaskStateResult>> {
    this.cancels.push(envelope);
    if (this.refusal) return this.refusal;
    const { taskId, requestedBy, reason } = envelope.payload;
    const [row] = await this.kit.query<{ status: TaskState; attempt: number }>('select status, attempt from agent_task_queue where task_id = $1', [taskId]);
    if (!row) return { ok: false, error: { code: 'not_found', message: `task ${taskId} not found`, retryable: false } };
    if (isTerminalTaskState(row.status)) return { ok: false, error: { code: 'terminal_state', message: `task ${taskId} is ${row.status}`, retryable: false } };
    await this.kit.setTaskStatus(taskId, 'cancelled');
    await this.kit.appendTaskEvent('task.cancelled', { taskId, attempt: row.attempt > 0 ? row.attempt : null, cancelledBy: requestedBy, reason });
    return commandSuccess({ taskId, state: 'cancelled' as const });
  }
}
