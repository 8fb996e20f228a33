import type { EntityManager } from 'typeorm';
import {
  commandFailure,
  commandSuccess,
  separateAgentSecrets,
  uuidv7,
  type CommandName,
  type CommandPayloadOf,
  type CommandReply,
  type CommandResultOf,
  type TaskClaimResult,
} from '@switchyard/contracts';
import type { SecretKeyring } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';
import { claimTasks } from '../claim/claim-tasks';
import { commandErrorCodeOf } from '../domain/task-refusal';
import type { TaskCommand } from '../domain/task.commands';
import { isBeforeStart, type Task } from '../domain/task.state';
import { initialTaskState } from '../domain/task.decider';
import { retryBackoffOf, type QueueConfig } from '../queue.config';
import { applyTaskCommand, type CommandCause } from '../storage/task.repository';
import type { ReplyRecord } from './run-idempotent-command';
import { applyThenRetry } from '../retry/enqueue-retry';
import { findUnfinishedTasks } from './cancel-scope.query';
import { releaseOrphans } from './release-orphans';
import { agentLimitStatement } from '../claim/agent-limit.store';
import { readClaimant } from '../claim/claim-candidates.query';
import { withLeaseChecked } from './report-lease';
import { secretBundleStatement } from '../storage/task-secrets.store';
import { introspectTaskToken } from '../storage/task-token.introspection';

export interface CommandContext {
  readonly manager: EntityManager;
  readonly cause: CommandCause;
  readonly now: Date;
  readonly config: QueueConfig;
  /** Key of the task-scoped tokens (see `deriveTaskToken`). */
  readonly taskTokenSecret: string;
  /** Seals the agents' secret values at rest (`QUEUE_SECRET_KEYS`). */
  readonly secretKeyring: SecretKeyring;
  readonly logger: JsonLogger;
  /** Keeps the command's reply with its write (see `ReplyRecord`). */
  readonly replyRecord: ReplyRecord<unknown>;
}

type Handler<TName extends CommandName> = (payload: CommandPayloadOf<TName>, context: CommandContext) => Promise<CommandReply<CommandResultOf<TName>>>;

const later = (now: Date, milliseconds: number): string => new Date(now.getTime() + milliseconds).toISOString();

/** Runs one decider command and turns its decision into the command's reply. */
async function decideAndReply<TResult>(
  context: CommandContext,
  command: TaskCommand,
  result: (task: Task) => TResult,
  known: Pick<Parameters<typeof applyTaskCommand>[0], 'state' | 'alongside'> = {},
): Promise<CommandReply<TResult>> {
  // A decision that writes events keeps this reply with them.
  let written: CommandReply<TResult> | undefined;
  const applied = await applyTaskCommand({
    manager: context.manager,
    cause: context.cause,
    command,
    ...known,
    alongsideOf: (task) => {
      written = commandSuccess(result(task));
      return (context.replyRecord as ReplyRecord<TResult>).alongside(written);
    },
  });
  if (!applied.decision.ok) return commandFailure(commandErrorCodeOf(applied.decision.refusal.code), applied.decision.refusal.message);
  if (written) return written;
  const task = applied.state as Task;
  return commandSuccess(result(task), applied.decision.alreadyApplied ? { alreadyApplied: true } : {});
}

const stateResult = (task: Task) => ({ taskId: task.taskId, state: task.status });

/** The deadline the attempt's daemon must renew by: the start deadline before the start, then the lease. */
const attemptDeadlineResult = (task: Task, now: Date) => ({
  leaseExpiresAt: (isBeforeStart(task) ? task.startBy : task.leaseExpiresAt) ?? now.toISOString(),
  cancelRequested: task.cancelRequest !== null,
});

/** What each command does, in the transaction `runIdempotentCommand` opened for it. */
export const TASK_COMMAND_HANDLERS: { [TName in CommandName]: Handler<TName> } = {
  // The agent's secret values stay in a sealed bundle of their own; the event names the bundle. The
  // bundle and the agent's limit are written with the events, and a fresh task has none to load.
  'task.enqueue': async (payload, context) => {
    const bundleId = uuidv7();
    const { agent, values } = separateAgentSecrets(payload.agent, bundleId);
    return decideAndReply(
      context,
      {
        kind: 'enqueue',
        taskId: uuidv7(),
        now: context.now.toISOString(),
        ...payload,
        agent,
        maxAttempts: payload.maxAttempts ?? context.config.QUEUE_DEFAULT_MAX_ATTEMPTS,
        retryOfTaskId: null,
      },
      stateResult,
      {
        state: initialTaskState(),
        alongside: [
          agentLimitStatement(payload.agentId, payload.agent.maxConcurrentTasks),
          ...(Object.keys(values).length > 0 ? [secretBundleStatement(context.secretKeyring, bundleId, values)] : []),
        ],
      },
    );
  },

  // Only runtimes the sender heartbeats: another daemon's ids in a claim are dropped, never claimed.
  // Secrets are sealed to the sender's first sealing key only.
  'task.claim': async (payload, context) => {
    const claimant = await readClaimant(context.manager, payload);
    if (!claimant.sealingKeyPinned) {
      context.logger.warn({ event: 'claim_sealing_key_mismatch', sender: payload.daemonId }, 'claim names a sealing key other than the one this daemon first claimed with');
      return commandFailure('sender_mismatch', 'this daemon claimed with another sealing key before: enroll it again to change keys');
    }
    const { runtimeIds } = claimant;
    const ignored = payload.runtimeIds.filter((runtimeId) => !runtimeIds.includes(runtimeId));
    if (ignored.length > 0) {
      context.logger.warn({ event: 'claim_runtimes_ignored', sender: payload.daemonId, runtimeIds: ignored }, 'claim names runtimes another daemon (or none) registered; ignored');
    }
    if (runtimeIds.length === 0) return commandSuccess({ tasks: [] });
    // A claim that wins tasks keeps this reply with its writes.
    let written: CommandReply<TaskClaimResult> | undefined;
    const tasks = await claimTasks({
      manager: context.manager,
      payload: { ...payload, runtimeIds },
      cause: context.cause,
      now: context.now,
      startDeadlineMs: context.config.QUEUE_START_DEADLINE_MS,
      defaultMaxConcurrentTasks: context.config.QUEUE_DEFAULT_MAX_CONCURRENT_TASKS,
      taskTokens: { secret: context.taskTokenSecret, ttlMs: context.config.QUEUE_TASK_TOKEN_TTL_MS },
      secretKeyring: context.secretKeyring,
      onUnreadableBundles: (bundleIds) =>
        context.logger.error({ event: 'task_secrets_unreadable', bundleIds }, 'secret bundles sealed under a key QUEUE_SECRET_KEYS lacks: their runs will fail'),
      keepReply: (claimed) => {
        written = commandSuccess({ tasks: claimed });
        return (context.replyRecord as ReplyRecord<TaskClaimResult>).alongside(written);
      },
    });
    return written ?? commandSuccess({ tasks });
  },

  'task.start': async (payload, context) =>
    decideAndReply(
      context,
      { kind: 'start', ...(await withLeaseChecked(context.manager, 'task.start', payload)), now: context.now.toISOString(), leaseExpiresAt: later(context.now, context.config.QUEUE_LEASE_MS) },
      (task) => ({ leaseExpiresAt: task.leaseExpiresAt ?? later(context.now, context.config.QUEUE_LEASE_MS), cancelRequested: task.cancelRequest !== null }),
    ),

  // Before the start the renewal pushes the start deadline out by a whole start window, once running the lease by a lease.
  'task.renew': async (payload, context) =>
    decideAndReply(
      context,
      {
        kind: 'renew',
        ...(await withLeaseChecked(context.manager, 'task.renew', payload)),
        now: context.now.toISOString(),
        leaseExpiresAt: later(context.now, context.config.QUEUE_LEASE_MS),
        startBy: later(context.now, context.config.QUEUE_START_DEADLINE_MS),
      },
      (task) => attemptDeadlineResult(task, context.now),
    ),

  'task.await_local_directory': async (payload, context) =>
    decideAndReply(
      context,
      {
        kind: 'await_local_directory',
        ...(await withLeaseChecked(context.manager, 'task.await_local_directory', payload)),
        now: context.now.toISOString(),
        startBy: later(context.now, context.config.QUEUE_START_DEADLINE_MS),
      },
      (task) => attemptDeadlineResult(task, context.now),
    ),

  'task.complete': async (payload, context) =>
    decideAndReply(context, { kind: 'complete', ...(await withLeaseChecked(context.manager, 'task.complete', payload)), now: context.now.toISOString() }, stateResult),

  'task.fail': async (payload, context) => {
    const { decision, state, willRetry } = await applyThenRetry({
      manager: context.manager,
      cause: context.cause,
      now: context.now,
      backoff: retryBackoffOf(context.config),
      command: { kind: 'fail', ...(await withLeaseChecked(context.manager, 'task.fail', payload)), now: context.now.toISOString() },
    });
    if (!decision.ok) return commandFailure(commandErrorCodeOf(decision.refusal.code), decision.refusal.message);
    return commandSuccess({ ...stateResult(state as Task), willRetry }, decision.alreadyApplied ? { alreadyApplied: true } : {});
  },

  'task.cancel': (payload, context) => decideAndReply(context, { kind: 'cancel', ...payload, now: context.now.toISOString() }, stateResult),

  'task.requeue': (payload, context) => decideAndReply(context, { kind: 'requeue', ...payload, now: context.now.toISOString() }, stateResult),

  'task.cancel_matching': async (payload, context) => {
    const tasks = [];
    for (const taskId of await findUnfinishedTasks(context.manager, payload.scope)) {
      const { decision, state } = await applyTaskCommand({
        manager: context.manager,
        cause: context.cause,
        command: { kind: 'cancel', taskId, requestedBy: payload.requestedBy, reason: payload.reason, now: context.now.toISOString() },
      });
      if (decision.ok && state.exists) tasks.push(stateResult(state));
    }
    return commandSuccess({ tasks });
  },

  'task.release_orphans': async (payload, context) =>
    commandSuccess({ tasks: await releaseOrphans({ manager: context.manager, payload, cause: context.cause, now: context.now, backoff: retryBackoffOf(context.config) }) }),

  'task.token_introspect': async (payload, context) => commandSuccess(await introspectTaskToken(context.manager, { tokenHash: payload.tokenHash, now: context.now })),
};
