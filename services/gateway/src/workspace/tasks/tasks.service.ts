import { Injectable } from '@nestjs/common';
import { isTerminalTaskState, type TaskSource } from '@switchyard/contracts';
import { setActiveSpanTask } from '@switchyard/telemetry';
import { actorOf, type Caller } from '../common/caller';
import { AgentsRepository, type AgentRecord } from '../agents/agents.repository';
import { TaskRepositoriesResolver } from '../projects/task-repositories.resolver';
import { ApiError, notFound } from '../common/api-error';
import { RuntimeViewRepository } from '../runtimes/runtime-view.repository';
import { SkillDistribution } from '../skills/skill-distribution';
import { WorkspacesRepository } from '../workspaces/workspaces.repository';
import { agentSnapshotOf, rerunSourceOf } from './agent-snapshot.builder';
import { QueueCommandsClient } from './queue-commands.client';
import { queuedTaskExpiryOf } from './queued-task-expiry';
import { TaskReadsRepository } from './task-reads.repository';
import type { CreateTaskInput, RerunTaskInput, TaskDetail } from './task.schemas';

/** The queue's request id for an `Idempotency-Key`, namespaced per workspace and route so keys never meet. */
const requestIdOf = (caller: Caller, scope: string, idempotencyKey: string | undefined): string | undefined =>
  idempotencyKey === undefined ? undefined : `gateway:${caller.workspaceId}:${scope}:${idempotencyKey}`;

/**
 * Task commands from clients: everything is checked against the caller's workspace first, then
 * the queue (the single writer of task state) is asked over NATS.
 */
@Injectable()
export class TasksService {
  constructor(
    private readonly agents: AgentsRepository,
    private readonly runtimes: RuntimeViewRepository,
    private readonly reads: TaskReadsRepository,
    private readonly queue: QueueCommandsClient,
    private readonly skills: SkillDistribution,
    private readonly repositories: TaskRepositoriesResolver,
    private readonly workspaces: WorkspacesRepository,
  ) {}

  async create(caller: Caller, input: CreateTaskInput, idempotencyKey: string | undefined): Promise<TaskDetail> {
    const agent = await this.usableAgent(caller.workspaceId, input.agentId);
    return this.enqueue(caller.workspaceId, {
      agent,
      source: { kind: 'quick_create' },
      prompt: input.prompt,
      priority: input.priority ?? 0,
      forceFreshSession: false,
      expiresInSeconds: input.expiresInSeconds,
      requestId: requestIdOf(caller, 'create', idempotencyKey),
    });
  }

  /** The same prompt and source again, by the agent as it is configured now, in a fresh session. */
  async rerun(caller: Caller, taskId: string, input: RerunTaskInput, idempotencyKey: string | undefined): Promise<TaskDetail> {
    const original = await this.reads.enqueued(caller.workspaceId, taskId);
    if (!original) throw notFound('task', taskId);
    if (!isTerminalTaskState(original.status)) {
      throw new ApiError('task_not_finished', `task ${taskId} is ${original.status}; only a completed, failed or cancelled task can be rerun`);
    }
    const agent = await this.usableAgent(caller.workspaceId, original.payload.agentId);
    return this.enqueue(caller.workspaceId, {
      agent,
      source: rerunSourceOf(original.payload.source),
      prompt: original.payload.prompt,
      priority: original.payload.priority,
      forceFreshSession: true,
      expiresInSeconds: input.expiresInSeconds,
      requestId: requestIdOf(caller, `rerun-${taskId}`, idempotencyKey),
    });
  }

  async cancel(caller: Caller, taskId: string, reason: string | undefined): Promise<TaskDetail> {
    if (!(await this.reads.exists(caller.workspaceId, taskId))) throw notFound('task', taskId);
    await this.queue.send('task.cancel', { taskId, requestedBy: actorOf(caller), reason: reason ?? null });
    return this.readBack(caller.workspaceId, taskId);
  }

  /**
   * Cancels every unfinished task of an issue, an agent or a chat session (`task.cancel_matching`);
   * running ones end when their daemon has stopped the CLI. The caller has checked the issue, agent
   * or session is of its workspace. Idempotent: a repeat reaches only what is still unfinished.
   */
  async cancelUnfinished(
    caller: Caller,
    scope:
      | { readonly kind: 'issue'; readonly issueId: string }
      | { readonly kind: 'agent'; readonly agentId: string }
      | { readonly kind: 'chat_session'; readonly chatSessionId: string },
    reason: string,
  ): Promise<void> {
    await this.queue.send('task.cancel_matching', {
      scope: scope.kind === 'issue' ? { kind: 'issue', issueId: scope.issueId, agentId: null } : scope,
      requestedBy: actorOf(caller),
      reason,
    });
  }

  /**
   * Sends `task.enqueue` for an agent already checked with `usableAgent`; also the path of issue,
   * chat and autopilot triggers, which name no TTL and so get the workspace's default.
   */
  async enqueue(
    workspaceId: string,
    options: {
      readonly agent: AgentRecord;
      readonly source: TaskSource;
      readonly prompt: string;
      readonly priority: number;
      readonly forceFreshSession: boolean;
      /** Undefined: the workspace's `queuedTaskTtlSeconds`; null: no expiry. */
      readonly expiresInSeconds?: number | null;
      readonly requestId: string | undefined;
    },
  ): Promise<TaskDetail> {
    const { requestId } = options;
    // Nothing the gateway sends is deferred (a schedule fires at its minute); were it, the TTL would count from fireAt.
    const fireAt = null;
    const expiry = queuedTaskExpiryOf({
      expiresInSeconds: options.expiresInSeconds,
      workspaceDefaultSeconds: options.expiresInSeconds === undefined ? await this.workspaces.queuedTaskTtlSeconds(workspaceId) : null,
      now: new Date(),
      fireAt,
    });
    const { result } = await this.queue.send(
      'task.enqueue',
      {
        workspaceId,
        agentId: options.agent.id,
        // Each skill version is in the object store before the task can be claimed; the repositories'
        // credential secrets go in clear, for the queue to seal into the task's bundle.
        agent: agentSnapshotOf(
          options.agent,
          await this.skills.versionsForTask(workspaceId, options.agent.skills),
          await this.repositories.forTask(workspaceId, options.source),
        ),
        runtimeId: options.agent.runtimeId,
        source: options.source,
        priority: options.priority,
        prompt: options.prompt,
        forceFreshSession: options.forceFreshSession,
        maxAttempts: null,
        fireAt,
        ...expiry,
      },
      requestId ? { requestId } : {},
    );
    // The request's span (REST, a trigger's) names the task it created.
    setActiveSpanTask(result.taskId);
    return this.readBack(workspaceId, result.taskId);
  }

  /** An active agent whose runtime is still one of the workspace's. */
  async usableAgent(workspaceId: string, agentId: string): Promise<AgentRecord> {
    const agent = await this.agents.find(workspaceId, agentId);
    if (!agent) throw notFound('agent', agentId);
    if (agent.archivedAt !== null) throw new ApiError('agent_archived', `agent ${agentId} is archived`);
    if (!(await this.runtimes.find(workspaceId, agent.runtimeId))) {
      throw new ApiError('agent_runtime_unavailable', `runtime ${agent.runtimeId} of agent ${agentId} is not a runtime of this workspace`);
    }
    return agent;
  }

  /** The queue commits before it replies, so the task is readable now. */
  private async readBack(workspaceId: string, taskId: string): Promise<TaskDetail> {
    const detail = await this.reads.detail(workspaceId, taskId);
    if (!detail) throw new ApiError('queue_error', `the queue accepted task ${taskId} but it cannot be read back`, { taskId });
    return detail;
  }
}
