import { Injectable } from '@nestjs/common';
import type { RawQueryRunner } from '../database/returning-rows';
import { ApiError, notFound } from '../common/api-error';
import { IssuesRepository } from '../issues/issues.repository';
import { TasksService } from '../tasks/tasks.service';
import { IssueTriggerWriter } from '../issues/issue-trigger.writer';
import { TaskTriggersRepository, type TaskTriggerRecord } from '../triggers/task-triggers.repository';
import { buildAutopilotPrompt, minuteLabel } from './autopilot-prompt.builder';
import type { AutopilotFiring, AutopilotTrigger } from './autopilot.schemas';
import { AutopilotsRepository, type AutopilotRecord } from './autopilots.repository';

/** Every firing's trigger key starts so; the rest names the trigger and what makes it unique. */
export const AUTOPILOT_TRIGGER_PREFIX = 'autopilot:';

/**
 * `autopilot:<id>:schedule:<minute ISO>` for a scheduled minute (the same in every replica), or
 * `autopilot:<id>:<manual|webhook>:<Idempotency-Key or a fresh id>`.
 */
export function autopilotTriggerKey(options: { autopilotId: string; trigger: AutopilotTrigger; discriminator: string }): string {
  return `${AUTOPILOT_TRIGGER_PREFIX}${options.autopilotId}:${options.trigger}:${options.discriminator}`;
}

export interface FiringRequest {
  readonly autopilot: AutopilotRecord;
  readonly trigger: AutopilotTrigger;
  /** What makes this firing unique (see `autopilotTriggerKey`). */
  readonly discriminator: string;
  /** The scheduled minute, or the arrival of a manual or webhook firing. */
  readonly firedAt: Date;
  readonly payload: unknown;
}

export interface WrittenFiring {
  readonly trigger: TaskTriggerRecord;
  /** The key existed: an earlier request (or replica) wrote this firing. */
  readonly repeated: boolean;
}

/**
 * One firing = one `task_trigger` row with the firing's key, written in the caller's transaction:
 * in `run_only` mode with the autopilot's own prompt and source; in `create_issue` mode as the
 * assignment trigger of a new issue (the issues' own writer builds the prompt from the issue).
 * After the commit `send` sends it through the ordinary task path with its fixed request id.
 */
@Injectable()
export class AutopilotFiringService {
  constructor(
    private readonly autopilots: AutopilotsRepository,
    private readonly issues: IssuesRepository,
    private readonly writer: IssueTriggerWriter,
    private readonly triggers: TaskTriggersRepository,
    private readonly tasks: TasksService,
  ) {}

  async write(runner: RawQueryRunner, request: FiringRequest): Promise<WrittenFiring> {
    const { autopilot, trigger, firedAt, payload } = request;
    const { workspaceId, agentId } = autopilot;
    const triggerKey = autopilotTriggerKey({ autopilotId: autopilot.id, trigger, discriminator: request.discriminator });
    const [existing] = await this.triggers.find(runner, workspaceId, [triggerKey]);
    if (existing) return { trigger: existing, repeated: true };
    const prompt = buildAutopilotPrompt({ autopilot, trigger, firedAt, payload });
    if (autopilot.mode === 'run_only') {
      const written = await this.triggers.insert(runner, {
        workspaceId,
        triggerKey,
        agentId,
        issueId: null,
        chatSessionId: null,
        enqueue: { source: { kind: 'autopilot', autopilotId: autopilot.id, trigger }, prompt, priority: 0, forceFreshSession: false },
      });
      return { trigger: written, repeated: false };
    }
    const issue = await this.issues.insert(runner, {
      workspaceId,
      input: { title: `${autopilot.name} — ${minuteLabel(firedAt)}`, description: prompt.slice(0, 100_000), assigneeAgentId: agentId },
      project: null,
      idempotencyKey: undefined,
    });
    await this.issues.setAssignmentTrigger(runner, { workspaceId, id: issue.id, triggerKey });
    const written = await this.writer.write(runner, { workspaceId, issue: { ...issue, assignmentTriggerKey: triggerKey }, agentId, triggerKey, trigger: { kind: 'assignment' } });
    return { trigger: written, repeated: false };
  }

  /** Sends a written firing to the queue (same request id on every send); answers its task id. */
  async send(workspaceId: string, trigger: TaskTriggerRecord): Promise<string> {
    if (trigger.taskId !== null) return trigger.taskId;
    const agent = await this.tasks.usableAgent(workspaceId, trigger.agentId);
    const task = await this.tasks.enqueue(workspaceId, { agent, ...trigger.enqueue, requestId: trigger.requestId });
    await this.triggers.markEnqueued({ workspaceId, triggerKey: trigger.triggerKey, taskId: task.taskId });
    return task.taskId;
  }

  /** A manual or webhook firing: written under the autopilot's row lock (so one key makes one firing), then sent. */
  async fire(options: { workspaceId: string; autopilotId: string; trigger: Exclude<AutopilotTrigger, 'schedule'>; discriminator: string; payload: unknown }): Promise<AutopilotFiring> {
    const { workspaceId, autopilotId, trigger } = options;
    const written = await this.autopilots.transaction(async (runner) => {
      const autopilot = await this.autopilots.find(workspaceId, autopilotId, runner, { forUpdate: true });
      if (!autopilot) throw notFound('autopilot', autopilotId);
      return this.write(runner, { autopilot, trigger, discriminator: options.discriminator, firedAt: new Date(), payload: options.payload });
    });
    try {
      const taskId = await this.send(workspaceId, written.trigger);
      return { autopilotId, trigger, issueId: issueIdOf(written.trigger), taskId, repeated: written.repeated };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      throw new ApiError(error.code, `${error.message} (the firing is saved; repeat the request with the same Idempotency-Key to send its task again)`, {
        saved: { kind: 'autopilot_firing', triggerKey: written.trigger.triggerKey, issueId: issueIdOf(written.trigger) },
      });
    }
  }
}

export function issueIdOf(trigger: TaskTriggerRecord): string | null {
  const { source } = trigger.enqueue;
  return source.kind === 'issue' ? source.issueId : null;
}
