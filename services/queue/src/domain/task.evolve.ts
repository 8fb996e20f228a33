import type { RepositoryWorkResult } from '@switchyard/contracts';
import type { TaskEvent, TaskEventOf } from './task.events';
import type { Task, TaskDeciderState } from './task.state';

/** Folds one event into the state. Total and pure: the stored log of a task rebuilds it exactly. */
export function evolve(state: TaskDeciderState, event: TaskEvent): TaskDeciderState {
  if (event.type === 'task.enqueued') return enqueued(event, state.version + 1);
  // Only `task.enqueued` starts a task; nothing else can precede it in a task's log.
  if (!state.exists) return state;
  const task: Task = { ...state, version: state.version + 1 };
  const { occurredAt } = event;
  switch (event.type) {
    case 'task.deferred':
      return { ...task, status: 'deferred', fireAt: event.payload.fireAt };
    case 'task.claimed':
      return {
        ...task,
        status: 'dispatched',
        attempt: event.payload.attempt,
        daemonId: event.payload.daemonId,
        startBy: event.payload.startBy,
        leaseExpiresAt: null,
        localDirectoryWait: null,
      };
    case 'task.local_directory_awaited':
      return {
        ...task,
        status: 'waiting_local_directory',
        startBy: event.payload.startBy,
        localDirectoryWait: {
          localPath: event.payload.localPath,
          heldByTaskId: event.payload.heldByTaskId,
          // A changed holder is the same wait going on.
          since: task.localDirectoryWait?.since ?? occurredAt,
        },
      };
    case 'task.start_deadline_extended':
      return { ...task, startBy: event.payload.startBy };
    case 'task.started':
      return { ...task, status: 'running', startBy: null, leaseExpiresAt: event.payload.leaseExpiresAt, localDirectoryWait: null };
    case 'task.heartbeat':
      return { ...task, leaseExpiresAt: event.payload.leaseExpiresAt };
    case 'task.requeued':
      // The attempt is over; `daemonId` stays so the last holder is known, but nothing is live.
      return { ...task, status: 'queued', startBy: null, leaseExpiresAt: null, cancelRequest: null, localDirectoryWait: null, queuedAt: occurredAt };
    case 'task.timed_out':
      // A fact only; the event that follows it moves the state.
      return task;
    case 'task.expired':
      return ended(task, {
        status: 'failed',
        reason: 'expired',
        message: event.payload.message,
        attempt: task.attempt,
        sessionId: null,
        at: occurredAt,
      });
    case 'task.completed':
      return ended(withRepositories(task, event.payload), {
        status: 'completed',
        attempt: event.payload.attempt,
        sessionId: event.payload.sessionId,
        at: occurredAt,
      });
    case 'task.failed':
      return ended(withRepositories(task, event.payload), {
        status: 'failed',
        reason: event.payload.reason,
        message: event.payload.message,
        attempt: event.payload.attempt,
        sessionId: event.payload.sessionId,
        at: occurredAt,
      });
    case 'task.cancel_requested':
      return {
        ...task,
        cancelRequest: { actor: event.payload.requestedBy, reason: event.payload.reason, requestedAt: occurredAt },
      };
    case 'task.cancelled':
      return ended(withRepositories(task, event.payload), {
        status: 'cancelled',
        actor: event.payload.cancelledBy,
        reason: event.payload.reason,
        attempt: event.payload.attempt,
        at: occurredAt,
      });
    default:
      return assertNever(event);
  }
}

function enqueued(event: TaskEventOf<'task.enqueued'>, version: number): Task {
  const { payload } = event;
  return {
    exists: true,
    taskId: payload.taskId,
    workspaceId: payload.workspaceId,
    agentId: payload.agentId,
    agent: payload.agent,
    runtimeId: payload.runtimeId,
    source: payload.source,
    priority: payload.priority,
    prompt: payload.prompt,
    forceFreshSession: payload.forceFreshSession,
    maxAttempts: payload.maxAttempts,
    attempt: 0,
    status: 'queued',
    fireAt: null,
    expiresAt: payload.expiresAt,
    // Stored events are folded as written: those from before queue ageing lack the field.
    queuedTtlMs: payload.queuedTtlMs ?? null,
    daemonId: null,
    startBy: null,
    leaseExpiresAt: null,
    cancelRequest: null,
    localDirectoryWait: null,
    outcome: null,
    repositories: [],
    retryOfTaskId: payload.retryOfTaskId,
    enqueuedAt: event.occurredAt,
    queuedAt: event.occurredAt,
    version,
  };
}

function ended(task: Task, outcome: NonNullable<Task['outcome']>): Task {
  return { ...task, status: outcome.status, startBy: null, leaseExpiresAt: null, localDirectoryWait: null, outcome };
}

/**
 * The repositories an ending reported, unless it reported none (the queue ended the attempt).
 * Events stored before repositories lack the field: the store hands back payloads as written.
 */
function withRepositories(task: Task, payload: { readonly repositories?: readonly RepositoryWorkResult[] }): Task {
  const repositories = payload.repositories ?? [];
  return repositories.length > 0 ? { ...task, repositories } : task;
}

function assertNever(value: never): never {
  throw new Error(`Unhandled task event ${JSON.stringify(value)}`);
}
