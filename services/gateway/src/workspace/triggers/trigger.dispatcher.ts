import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { TasksService } from '../tasks/tasks.service';
import { TaskTriggersRepository, type TaskTriggerRecord } from './task-triggers.repository';
import { triggerKindOf, type TriggeredTask } from './trigger.schemas';

/** What the request wrote before sending its triggers, named in a failure so the client can retry. */
export interface SavedResource {
  readonly kind: 'issue' | 'comment' | 'chat_message';
  readonly id: string;
}

/**
 * Sends the triggers a request wrote (after its transaction committed) to the queue through the
 * ordinary task creation path, each with its own deterministic request id; a trigger that already
 * has a task is not sent again. When the queue cannot be reached the written rows stay, the client
 * gets the error (e.g. 503 `queue_unavailable`) naming what was saved, and repeating the request
 * (same `Idempotency-Key`, or the same assignee) re-sends the pending triggers with their request ids.
 */
@Injectable()
export class TriggerDispatcher {
  constructor(
    private readonly tasks: TasksService,
    private readonly triggers: TaskTriggersRepository,
  ) {}

  async dispatch(workspaceId: string, triggers: readonly TaskTriggerRecord[], saved: SavedResource): Promise<TriggeredTask[]> {
    const triggered: TriggeredTask[] = [];
    for (const trigger of triggers) {
      const kind = triggerKindOf(trigger.enqueue.source);
      if (trigger.taskId !== null) {
        triggered.push({ agentId: trigger.agentId, taskId: trigger.taskId, trigger: kind });
        continue;
      }
      try {
        const agent = await this.tasks.usableAgent(workspaceId, trigger.agentId);
        const task = await this.tasks.enqueue(workspaceId, { agent, ...trigger.enqueue, requestId: trigger.requestId });
        await this.triggers.markEnqueued({ workspaceId, triggerKey: trigger.triggerKey, taskId: task.taskId });
        triggered.push({ agentId: trigger.agentId, taskId: task.taskId, trigger: kind });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        throw new ApiError(error.code, `${error.message} (the ${saved.kind.replace('_', ' ')} ${saved.id} is saved; repeat the request to send its task again)`, {
          saved,
          pendingTriggers: triggers.length - triggered.length,
        });
      }
    }
    return triggered;
  }
}
