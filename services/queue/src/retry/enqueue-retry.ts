import type { EntityManager } from 'typeorm';
import { uuidv7 } from '@switchyard/contracts';
import { planRetry } from '../domain/retry.policy';
import type { TaskCommand } from '../domain/task.commands';
import type { Task } from '../domain/task.state';
import { applyTaskCommand, type AppliedDecision, type CommandCause } from '../storage/task.repository';
import { hasPendingRerun } from './pending-rerun.query';

/**
 * After a task failed: a transient reason with attempts left gets a new task linked by
 * `retryOfTaskId`, in the same transaction as the failure. Returns whether one was enqueued.
 */
export async function enqueueRetry(options: {
  readonly manager: EntityManager;
  readonly task: Task;
  readonly cause: CommandCause;
  readonly now: Date;
}): Promise<boolean> {
  const plan = planRetry(options.task, {
    rerunPending: await hasPendingRerun(options.manager, options.task),
    // The session-resume service decides poisoning; until it answers, the transient reasons that
    // retry here are never poisoned ones.
    sessionPoisoned: false,
    retryAt: null,
  });
  if (!plan.retry) return false;
  const retried = await applyTaskCommand({
    manager: options.manager,
    cause: options.cause,
    command: { kind: 'enqueue', taskId: uuidv7(), now: options.now.toISOString(), ...plan.enqueue },
  });
  return retried.decision.ok;
}

/**
 * Applies a command that may fail the task (a report, a timeout, an offline runtime) and, when
 * this very command failed it, enqueues the retry in the same transaction. A repeat finds the
 * failure already applied and adds nothing, so each failed attempt gets at most one retry.
 */
export async function applyThenRetry(options: {
  readonly manager: EntityManager;
  readonly command: TaskCommand;
  readonly cause: CommandCause;
  readonly now: Date;
}): Promise<AppliedDecision & { readonly willRetry: boolean }> {
  const { manager, command, cause, now } = options;
  const { decision, state } = await applyTaskCommand({ manager, command, cause });
  const failedNow = decision.ok && !decision.alreadyApplied && state.exists && state.status === 'failed';
  const willRetry = failedNow ? await enqueueRetry({ manager, task: state, cause, now }) : false;
  return { decision, state, willRetry };
}
