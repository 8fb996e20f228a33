import { isDeepStrictEqual } from 'node:util';
import { isTerminalTaskState, type RepositoryWorkResult, type TaskFailureReason } from '@switchyard/contracts';
import { DEFAULT_MAX_ATTEMPTS } from './retry.policy';
import type {
  AttemptReport,
  AwaitLocalDirectory,
  CancelTask,
  ClaimTask,
  CompleteTask,
  EnqueueTask,
  ExpireTask,
  FailOfflineTask,
  FailTask,
  RenewTaskLease,
  RequeueTask,
  StartTask,
  TaskCommand,
  TimeOutTask,
} from './task.commands';
import { emitAt, type TaskEvent } from './task.events';
import { isRepeatOfEnding } from './task-ending-repeat';
import type { TaskRefusal, TaskRefusalCode } from './task-refusal';
import { hasLiveAttempt, isBeforeStart, type AbsentTask, type CancelRequest, type Task, type TaskDeciderState } from './task.state';

export { evolve } from './task.evolve';

/**
 * `alreadyApplied`: the command repeats one whose effect is already in the state (e.g. a retried
 * `complete` after the reply was lost); no events, and the edge answers "already done".
 */
export type TaskDecision =
  | { ok: true; events: TaskEvent[]; alreadyApplied: boolean }
  | { ok: false; refusal: TaskRefusal };

export function initialTaskState(): AbsentTask {
  return { exists: false, version: 0 };
}

/**
 * Pure: what the command does to the task, as events, or why it is refused.
 *
 * Cancel of a live attempt is two-phase: `task.cancel_requested` (pushed to the daemon), then
 * `task.cancelled` when that attempt ends in any way (its complete, fail or requeue report, a
 * timeout, or its daemon going offline). Ending it at once would free the (agent, issue) or chat
 * slot while the process tree may still be writing to the work dir the next task reuses. Once a
 * cancel is pending every end of the attempt becomes `task.cancelled` with the requester as actor,
 * so a late complete cannot turn it into `completed`, and the lease is no longer extended, so a
 * daemon that never confirms is ended by the lease timeout within one lease.
 *
 * Before the start a claimed attempt is `dispatched`, or `waiting_local_directory` while another
 * task on its machine uses its local directory; both behave alike (start, renew, fail, requeue,
 * cancel, start deadline, offline), and each renewal pushes the start deadline out, so a slow
 * checkout or a long wait keeps its claim for as long as its daemon is heard.
 */
export function decide(command: TaskCommand, state: TaskDeciderState): TaskDecision {
  if (!state.exists) {
    return command.kind === 'enqueue' ? enqueue(command) : refuse('not_found', `Task ${command.taskId} does not exist`);
  }
  if (isTerminalTaskState(state.status)) {
    if (isRepeatOfEnding(command, state)) return alreadyApplied();
    return refuse('terminal', `Task ${state.taskId} is already ${state.status}`);
  }
  switch (command.kind) {
    case 'enqueue':
      return isSameEnqueue(command, state)
        ? alreadyApplied()
        : refuse('already_exists', `Task ${state.taskId} was enqueued with different content`);
    case 'claim':
      return claim(command, state);
    case 'start':
      return start(command, state);
    case 'renew':
      return renew(command, state);
    case 'await_local_directory':
      return awaitLocalDirectory(command, state);
    case 'complete':
      return complete(command, state);
    case 'fail':
      return fail(command, state);
    case 'requeue':
      return requeue(command, state);
    case 'cancel':
      return cancel(command, state);
    case 'expire':
      return expire(command, state);
    case 'timeout':
      return timeOut(command, state);
    case 'runtime_offline':
      return failOffline(command, state);
    default:
      return assertNever(command);
  }
}

function enqueue(command: EnqueueTask): TaskDecision {
  const { taskId, now } = command;
  if (command.maxAttempts !== null && command.maxAttempts < 1) return refuse('invalid_input', 'maxAttempts must be at least 1');
  if (command.expiresAt !== null && !isAfter(command.expiresAt, now)) return refuse('invalid_input', 'expiresAt must be after now');
  const queuedTtlMs = command.queuedTtlMs ?? null;
  if (queuedTtlMs !== null && command.expiresAt === null) return refuse('invalid_input', 'queuedTtlMs needs the expiresAt it was computed for');
  const enqueued = emitAt(now)('task.enqueued', {
      taskId,
      workspaceId: command.workspaceId,
      agentId: command.agentId,
      agent: command.agent,
      runtimeId: command.runtimeId,
      source: command.source,
      priority: command.priority,
      prompt: command.prompt,
      forceFreshSession: command.forceFreshSession,
      maxAttempts: command.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      expiresAt: command.expiresAt,
      // Written only when set, so a task without a TTL reads as every event before queue ageing did.
      ...(queuedTtlMs === null ? {} : { queuedTtlMs }),
      retryOfTaskId: command.retryOfTaskId,
  });
  if (command.fireAt === null || !isAfter(command.fireAt, now)) return applied([enqueued]);
  const reason = command.retryOfTaskId === null ? 'scheduled' : 'retry_backoff';
  return applied([enqueued, emitAt(now)('task.deferred', { taskId, fireAt: command.fireAt, reason, attemptsUsed: 0 })]);
}

/** A retried enqueue (same id, same content) is a repeat; anything else reusing the id is a conflict. */
function isSameEnqueue(command: EnqueueTask, task: Task): boolean {
  return (
    command.workspaceId === task.workspaceId &&
    command.agentId === task.agentId &&
    isDeepStrictEqual(command.agent, task.agent) &&
    command.runtimeId === task.runtimeId &&
    command.priority === task.priority &&
    command.prompt === task.prompt &&
    command.forceFreshSession === task.forceFreshSession &&
    command.expiresAt === task.expiresAt &&
    (command.queuedTtlMs ?? null) === task.queuedTtlMs &&
    command.retryOfTaskId === task.retryOfTaskId &&
    isDeepStrictEqual(command.source, task.source)
  );
}

// Deferred tasks are claimed straight from `deferred` once due: the catalog has no event for a
// separate deferred -> queued promotion, and the claim query filters on `fireAt` anyway.
function claim(command: ClaimTask, task: Task): TaskDecision {
  if (task.status !== 'queued' && task.status !== 'deferred') return wrongState(command, task);
  if (!command.runtimeIds.includes(task.runtimeId)) {
    return refuse('runtime_mismatch', `Daemon ${command.daemonId} does not serve runtime ${task.runtimeId}`);
  }
  if (task.status === 'deferred' && task.fireAt !== null && isAfter(task.fireAt, command.now)) {
    return refuse('not_due', `Task ${task.taskId} is deferred until ${task.fireAt}`);
  }
  if (task.expiresAt !== null && !isAfter(task.expiresAt, command.now)) {
    return refuse('past_expiry', `Task ${task.taskId} expired at ${task.expiresAt}`);
  }
  if (!isAfter(command.startBy, command.now)) return refuse('invalid_input', 'startBy must be after now');
  const payload = {
    taskId: task.taskId,
    attempt: task.attempt + 1,
    daemonId: command.daemonId,
    runtimeId: task.runtimeId,
    startBy: command.startBy,
  };
  return applied([emitAt(command.now)('task.claimed', payload)]);
}

function start(command: StartTask, task: Task): TaskDecision {
  const stale = staleReport(command, task);
  if (stale) return stale;
  if (task.status === 'running') return alreadyApplied();
  if (!isAfter(command.leaseExpiresAt, command.now)) return refuse('invalid_input', 'leaseExpiresAt must be after now');
  const payload = {
    taskId: task.taskId,
    attempt: task.attempt,
    daemonId: command.daemonId,
    runtimeId: task.runtimeId,
    workDir: command.workDir,
    resumedSessionId: command.resumedSessionId,
    leaseExpiresAt: command.leaseExpiresAt,
  };
  return applied([emitAt(command.now)('task.started', payload)]);
}

function renew(command: RenewTaskLease, task: Task): TaskDecision {
  const stale = staleReport(command, task);
  if (stale) return stale;
  // The reply reads `cancelRequest` from the state; a pending cancel stops lease extension.
  if (task.cancelRequest) return applied([]);
  if (isBeforeStart(task)) {
    if (!isAfter(command.startBy, command.now)) return refuse('invalid_input', 'startBy must be after now');
    const payload = { taskId: task.taskId, attempt: task.attempt, daemonId: command.daemonId, startBy: command.startBy };
    return applied([emitAt(command.now)('task.start_deadline_extended', payload)]);
  }
  if (!isAfter(command.leaseExpiresAt, command.now)) return refuse('invalid_input', 'leaseExpiresAt must be after now');
  const payload = { taskId: task.taskId, attempt: task.attempt, daemonId: command.daemonId, leaseExpiresAt: command.leaseExpiresAt };
  return applied([emitAt(command.now)('task.heartbeat', payload)]);
}

/**
 * The wait is recorded once; a repeat naming the same path and holder is already applied, and a
 * changed one (another holder) is recorded again. Like a renewal it pushes the start deadline out,
 * unless a cancel is pending.
 */
function awaitLocalDirectory(command: AwaitLocalDirectory, task: Task): TaskDecision {
  const stale = staleReport(command, task);
  if (stale) return stale;
  if (!isBeforeStart(task)) return wrongState(command, task);
  const wait = task.localDirectoryWait;
  if (task.status === 'waiting_local_directory' && wait?.localPath === command.localPath && wait.heldByTaskId === command.heldByTaskId) {
    return alreadyApplied();
  }
  if (!isAfter(command.startBy, command.now)) return refuse('invalid_input', 'startBy must be after now');
  const payload = {
    taskId: task.taskId,
    attempt: task.attempt,
    daemonId: command.daemonId,
    localPath: command.localPath,
    heldByTaskId: command.heldByTaskId,
    startBy: task.cancelRequest && task.startBy !== null ? task.startBy : command.startBy,
  };
  return applied([emitAt(command.now)('task.local_directory_awaited', payload)]);
}

function complete(command: CompleteTask, task: Task): TaskDecision {
  const stale = staleReport(command, task);
  if (stale) return stale;
  if (task.status !== 'running') return wrongState(command, task);
  const { repositories } = command;
  if (task.cancelRequest) return applied([cancelled(task, { request: task.cancelRequest, now: command.now, repositories })]);
  const payload = {
    taskId: task.taskId,
    attempt: task.attempt,
    sessionId: command.sessionId,
    output: command.output,
    durationMs: command.durationMs,
    usage: command.usage,
    repositories,
  };
  return applied([emitAt(command.now)('task.completed', payload)]);
}

function fail(command: FailTask, task: Task): TaskDecision {
  const stale = staleReport(command, task);
  if (stale) return stale;
  const { repositories } = command;
  if (task.cancelRequest) return applied([cancelled(task, { request: task.cancelRequest, now: command.now, repositories })]);
  return applied([
    failed(task, {
      reason: command.reason,
      message: command.message,
      sessionId: command.sessionId,
      detail: command.detail,
      repositories,
      now: command.now,
    }),
  ]);
}

function requeue(command: RequeueTask, task: Task): TaskDecision {
  const stale = staleReport(command, task);
  if (stale) return stale;
  if (!isBeforeStart(task)) return wrongState(command, task);
  return applied([endUnstartedAttempt(task, { reason: command.reason, message: command.message, now: command.now })]);
}

function cancel(command: CancelTask, task: Task): TaskDecision {
  const { now } = command;
  if (task.status === 'queued' || task.status === 'deferred') {
    const payload = { taskId: task.taskId, attempt: null, cancelledBy: command.requestedBy, reason: command.reason, repositories: [] };
    return applied([emitAt(now)('task.cancelled', payload)]);
  }
  // The first request names the actor; later ones (anyone's) find it already pending.
  if (task.cancelRequest) return alreadyApplied();
  const payload = {
    taskId: task.taskId,
    requestedBy: command.requestedBy,
    reason: command.reason,
    daemonId: task.daemonId,
    attempt: task.attempt,
  };
  return applied([emitAt(now)('task.cancel_requested', payload)]);
}

function expire(command: ExpireTask, task: Task): TaskDecision {
  if (task.status !== 'queued' && task.status !== 'deferred') return wrongState(command, task);
  return applied([emitAt(command.now)('task.expired', { taskId: task.taskId, cause: command.cause, message: command.message })]);
}

function timeOut(command: TimeOutTask, task: Task): TaskDecision {
  const { now } = command;
  if (!hasLiveAttempt(task) || command.attempt !== task.attempt) return staleAttempt(command.attempt, task);
  // The start deadline binds an attempt before its start, the lease and run budget a running one.
  if (isBeforeStart(task) !== (command.timeout === 'start_deadline')) return wrongState(command, task);
  const deadline = command.timeout === 'start_deadline' ? task.startBy : command.timeout === 'lease' ? task.leaseExpiresAt : null;
  if (deadline !== null && isAfter(deadline, now)) {
    return refuse('deadline_not_passed', `The ${command.timeout} of task ${task.taskId} runs until ${deadline}`);
  }
  const timedOut = emitAt(now)('task.timed_out', {
    taskId: task.taskId,
    attempt: task.attempt,
    timeout: command.timeout,
    limitMs: command.limitMs,
  });
  if (command.timeout === 'start_deadline') {
    const ending = { reason: 'not_started' as const, message: `Claimed but not started within ${command.limitMs} ms` };
    return applied([timedOut, endUnstartedAttempt(task, { ...ending, now })]);
  }
  if (task.cancelRequest) return applied([timedOut, cancelled(task, { request: task.cancelRequest, now })]);
  const message = command.timeout === 'lease' ? `Lease not renewed for ${command.limitMs} ms` : `Run exceeded ${command.limitMs} ms`;
  return applied([timedOut, failed(task, { reason: 'timeout', message, sessionId: null, detail: null, repositories: [], now })]);
}

function failOffline(command: FailOfflineTask, task: Task): TaskDecision {
  const stale = staleReport(command, task);
  if (stale) return stale;
  if (task.cancelRequest) return applied([cancelled(task, { request: task.cancelRequest, now: command.now })]);
  return applied([
    failed(task, {
      reason: command.reason ?? 'runtime_offline',
      message: command.message,
      sessionId: null,
      detail: null,
      repositories: [],
      now: command.now,
    }),
  ]);
}

/** A claimed attempt that never ran: queued again while attempts remain, else the task fails. */
function endUnstartedAttempt(task: Task, ending: { reason: TaskFailureReason; message: string; now: string }): TaskEvent {
  const { reason, message, now } = ending;
  if (task.cancelRequest) return cancelled(task, { request: task.cancelRequest, now });
  if (task.attempt < task.maxAttempts) {
    return emitAt(now)('task.requeued', { taskId: task.taskId, attempt: task.attempt, reason, message });
  }
  return failed(task, { reason, message, sessionId: null, detail: null, repositories: [], now });
}

function failed(
  task: Task,
  ending: {
    reason: TaskFailureReason;
    message: string;
    sessionId: string | null;
    detail: string | null;
    repositories: RepositoryWorkResult[];
    now: string;
  },
): TaskEvent {
  const { now, ...failure } = ending;
  return emitAt(now)('task.failed', { taskId: task.taskId, attempt: task.attempt, ...failure });
}

/** `repositories`: what the attempt's own end report says it left; none when the queue ended it. */
function cancelled(
  task: Task,
  { request, now, repositories = [] }: { request: CancelRequest; now: string; repositories?: RepositoryWorkResult[] },
): TaskEvent {
  const payload = { taskId: task.taskId, attempt: task.attempt, cancelledBy: request.actor, reason: request.reason, repositories };
  return emitAt(now)('task.cancelled', payload);
}

/** Only the live attempt's own daemon may report on it. */
function staleReport(report: AttemptReport | FailOfflineTask, task: Task): TaskDecision | null {
  if (hasLiveAttempt(task) && report.attempt === task.attempt && report.daemonId === task.daemonId) return null;
  return staleAttempt(report.attempt, task);
}

function staleAttempt(attempt: number, task: Task): TaskDecision {
  const live = hasLiveAttempt(task) ? `attempt ${task.attempt} on ${task.daemonId}` : `no live attempt (${task.status})`;
  return refuse('stale_attempt', `Attempt ${attempt} of task ${task.taskId} is not live: ${live}`);
}

function wrongState(command: TaskCommand, task: Task): TaskDecision {
  return refuse('wrong_state', `Cannot ${command.kind} task ${task.taskId} while it is ${task.status}`);
}

function applied(events: TaskEvent[]): TaskDecision {
  return { ok: true, events, alreadyApplied: false };
}

function alreadyApplied(): TaskDecision {
  return { ok: true, events: [], alreadyApplied: true };
}

function refuse(code: TaskRefusalCode, message: string): TaskDecision {
  return { ok: false, refusal: { code, message } };
}

function isAfter(later: string, earlier: string): boolean {
  return Date.parse(later) > Date.parse(earlier);
}

function assertNever(value: never): never {
  throw new Error(`Unhandled task command ${JSON.stringify(value)}`);
}
