import { createHash, randomBytes } from 'node:crypto';
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
  type TaskTokenIntrospectResult,
} from '@switchyard/contracts';
import { serveRequests, type RequestServer } from '@switchyard/messaging';
import type { GatewayTestKit } from '../../gateway-test.spec-helper';

/**
 * Stands in for the queue service on NATS (services never import services, tests included):
 * answers `task.enqueue`, `task.cancel`, `task.cancel_matching` and `task.token_introspect` in the `queue` group and writes what the queue would
 * (the `agent_task_queue` row and the task's events), so the gateway's reads see the result.
 */
/** The queue's answer while it restarts: what a fake queue replies to test the gateway's 503 path. */
export const QUEUE_UNAVAILABLE_REPLY = { ok: false as const, error: { code: 'unavailable' as const, message: 'queue is restarting', retryable: true } };

const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

export class FakeQueue {
  readonly enqueued: Array<CommandOf<'task.enqueue'>> = [];
  readonly cancels: Array<CommandOf<'task.cancel'>> = [];
  readonly bulkCancels: Array<CommandOf<'task.cancel_matching'>> = [];
  /** What `task.token_introspect` answers per token hash: the tokens `issueTaskToken` handed out. */
  private readonly taskTokens = new Map<string, TaskTokenIntrospectResult>();
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
        subject: subjects.command('task.token_introspect'),
        queueGroup: 'queue',
        requestSchema: COMMAND_CATALOG['task.token_introspect'].request,
        handlerReturns: 'reply',
        handler: (envelope: CommandOf<'task.token_introspect'>) => this.introspect(envelope),
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

  /** A task token of a live attempt, as a claim would mint it; the queue answers for it until `endTaskToken`. */
  issueTaskToken(attempt: { taskId: string; workspaceId: string; agentId: string; issueId?: string | null; chatSessionId?: string | null }): string {
    const token = `syt_${randomBytes(32).toString('base64url')}`;
    const issueId = attempt.issueId ?? null;
    const chatSessionId = attempt.chatSessionId ?? null;
    this.taskTokens.set(hashOf(token), {
      active: true,
      taskId: attempt.taskId,
      attempt: 1,
      workspaceId: attempt.workspaceId,
      agentId: attempt.agentId,
      sourceKind: issueId ? 'issue' : chatSessionId ? 'chat' : 'quick_create',
      issueId,
      chatSessionId,
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    return token;
  }

  /** The attempt ended: its token is revoked, as the queue does at a terminal state. */
  endTaskToken(token: string): void {
    this.taskTokens.set(hashOf(token), { active: false, reason: 'revoked' });
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
    const taskId = await this.kit.insertTask({ workspaceId, enqueued: { ...rest, maxAttempts: rest.maxAttempts ?? 2, retryOfTaskId: null } });
    this.taskByRequestId.set(envelope.requestId, taskId);
    return commandSuccess({ taskId, state: 'queued' as const });
  }

  /** Cancels the unfinished tasks of the scope's issue, agent or chat session, as the queue would (running ones at once here). */
  private async cancelMatching(envelope: CommandOf<'task.cancel_matching'>): Promise<CommandReply<TaskCancelMatchingResult>> {
    this.bulkCancels.push(envelope);
    if (this.refusal) return this.refusal;
    const { scope, requestedBy, reason } = envelope.payload;
    const rows =
      scope.kind === 'issue'
        ? await this.kit.query<{ task_id: string; status: TaskState; attempt: number }>('select task_id, status, attempt from agent_task_queue where issue_id = $1', [scope.issueId])
        : scope.kind === 'agent'
          ? await this.kit.query<{ task_id: string; status: TaskState; attempt: number }>('select task_id, status, attempt from agent_task_queue where agent_id = $1', [scope.agentId])
          : await this.kit.query<{ task_id: string; status: TaskState; attempt: number }>('select task_id, status, attempt from agent_task_queue where chat_session_id = $1', [
              scope.chatSessionId,
            ]);
    const tasks: Array<{ taskId: string; state: TaskState }> = [];
    for (const row of rows.filter((candidate) => !isTerminalTaskState(candidate.status))) {
      await this.kit.setTaskStatus(row.task_id, 'cancelled');
      await this.kit.appendTaskEvent('task.cancelled', { taskId: row.task_id, attempt: row.attempt > 0 ? row.attempt : null, cancelledBy: requestedBy, reason, repositories: [] });
      tasks.push({ taskId: row.task_id, state: 'cancelled' });
    }
    return commandSuccess({ tasks });
  }

  private introspect(envelope: CommandOf<'task.token_introspect'>): Promise<CommandReply<TaskTokenIntrospectResult>> {
    if (this.refusal) return Promise.resolve(this.refusal);
    return Promise.resolve(commandSuccess(this.taskTokens.get(envelope.payload.tokenHash) ?? { active: false, reason: 'unknown' }));
  }

  private async cancel(envelope: CommandOf<'task.cancel'>): Promise<CommandReply<TaskStateResult>> {
    this.cancels.push(envelope);
    if (this.refusal) return this.refusal;
    const { taskId, requestedBy, reason } = envelope.payload;
    const [row] = await this.kit.query<{ status: TaskState; attempt: number }>('select status, attempt from agent_task_queue where task_id = $1', [taskId]);
    if (!row) return { ok: false, error: { code: 'not_found', message: `task ${taskId} not found`, retryable: false } };
    if (isTerminalTaskState(row.status)) return { ok: false, error: { code: 'terminal_state', message: `task ${taskId} is ${row.status}`, retryable: false } };
    await this.kit.setTaskStatus(taskId, 'cancelled');
    await this.kit.appendTaskEvent('task.cancelled', { taskId, attempt: row.attempt > 0 ? row.attempt : null, cancelledBy: requestedBy, reason, repositories: [] });
    return commandSuccess({ taskId, state: 'cancelled' as const });
  }
}
