import type { EntityManager } from 'typeorm';
import { failureReasonPoisonsSession, uuidv7 } from '@switchyard/contracts';
import { providerRetryAfterMsOf, retryAtOf, type RetryBackoffSettings } from '../domain/retry-backoff.policy';
import { planRetry } from '../domain/retry.policy';
import type { TaskCommand } from '../domain/task.commands';
import type { Task } from '../domain/task.state';
import { applyTaskCommand, type AppliedDecision, type CommandCause } from '../storage/task.repository';
import { hasPendingRerun } from './pending-rerun.query';
import { countPriorRetries } from './retry-chain.query';

/**
 * After a task failed: a transient reason with attempts left gets a new task linked by
 * `retryOfTaskId`, in the same transaction as the failure, deferred by the backoff (`fireAt`).
 * Returns whether one was enqueued.
 */
export async function enqueueRetry(options: {
  readonly manager: EntityManager;
  readonly task: Task;
  readonly cause: CommandCause;
  readonly now: Date;
  readonly backoff: RetryBackoffSettings;
  /** Jitter source; tests pin it. */
  readonly random?: () => number;
}): Promise<boolean> {
  const { task, now } = options;
  const failure = task.outcome?.status === 'failed' ? task.outcome : null;
  const plan = planRetry(task, {
    rerunPending: await hasPendingRerun(options.manager, task),
    // A reason that poisons the session (a context overflow) retries fresh; the session-resume
    // service would answer so too, this says it without asking.
    sessionPoisoned: failure !== null && failureReasonPoisonsSession(failure.reason),
    now,
    retryAt: retryAtOf(options.backoff, {
      priorRetries: await countPriorRetries(options.manager, task),
      providerRetryAfterMs: failure ? providerRetryAfterMsOf(failure.message) : null,
      now,
      random: options.random ?? Math.random,
    }),
  });
  if (!plan.retry) return false;
  const retried = await applyTaskCommand({
    manager: options.manager,
    cause: options.cause,
    command: { kind: 'enqueue', taskId: uuidv7(), now: now.toISOString(), ...plan.enqueue },
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
  readonly backoff: RetryBackoffSettings;
}): Promise<AppliedDecision & { readonly willRetry: boolean }> {
  const { manager, command, cause, now, backoff } = options;
  const { decision, state } = await applyTaskCommand({ manager, command, cause });
  const failedNow = decision.ok && !decision.alreadyApplied && state.exists && state.status === 'failed';
  const willRetry = failedNow ? await enqueueRetry({ manager, task: state, cause, now, backoff }) : false;
  return { decision, state, willRetry };
}
