import type { Actor, AgentSnapshot, PayloadOf, RepositoryWorkResult } from '@switchyard/contracts';
import { sampleAgentSnapshot } from '@switchyard/testing';
import type {
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
  TimeOutTask,
} from './task.commands';
import { taskEvent, type TaskEvent, type TaskEventOf } from './task.events';

// One task's story on a fixed clock: enqueued at T0, claimed at T1 (start by T2), started at T2
// (lease to T3); commands arrive at NOW, after every deadline, unless a test says otherwise.

export const TASK_ID = 'task-1';
export const DAEMON = 'daemon-a';
export const OTHER_DAEMON = 'daemon-b';
export const RUNTIME = 'runtime-claude-laptop-7';
export const ADA: Actor = { kind: 'user', id: 'user-ada' };
export const BOB: Actor = { kind: 'user', id: 'user-bob' };

export const T0 = '2025-06-01T12:00:00.000Z';
export const T1 = '2025-06-01T12:00:10.000Z';
export const T2 = '2025-06-01T12:00:40.000Z';
export const T3 = '2025-06-01T12:01:10.000Z';
export const NOW = '2025-06-01T12:05:00.000Z';
export const SOON = '2025-06-01T12:05:30.000Z';
export const LATER = '2025-06-01T13:00:00.000Z';

const source = { kind: 'issue', issueId: 'issue-42', trigger: 'assignment', commentId: null } as const;

/** A worktree the run committed to, as the daemon reports it at the end. */
export const WORKTREE_RESULT: RepositoryWorkResult = {
  name: 'switchyard',
  checkoutMode: 'worktree',
  branch: 'switchyard/issue-42/task-1',
  baseCommit: 'a'.repeat(40),
  headCommit: 'b'.repeat(40),
  filesChanged: 2,
  insertions: 10,
  deletions: 1,
  uncommittedFiles: 0,
};

export const LOCAL_PATH = '/home/ada/code/switchyard';
export const HOLDER_TASK = 'task-0';

export const AGENT: AgentSnapshot = sampleAgentSnapshot({ name: 'Reviewer', instructions: 'Review pull requests.' });

type FailureReasonOf<TType extends 'task.requeued'> = PayloadOf<TType>['reason'];

export const events = {
  enqueued: (overrides: Partial<PayloadOf<'task.enqueued'>> = {}, at = T0): TaskEventOf<'task.enqueued'> =>
    taskEvent({
      type: 'task.enqueued',
      payload: {
        taskId: TASK_ID,
        workspaceId: 'workspace-1',
        agentId: 'agent-reviewer',
        agent: AGENT,
        runtimeId: RUNTIME,
        source,
        priority: 2,
        prompt: 'Fix the flaky test',
        forceFreshSession: false,
        maxAttempts: 2,
        expiresAt: null,
        retryOfTaskId: null,
        ...overrides,
      },
      occurredAt: at,
    }),
  deferred: ({ fireAt, reason = 'scheduled', at = T0 }: { fireAt: string; reason?: 'scheduled' | 'retry_backoff'; at?: string }) =>
    taskEvent({ type: 'task.deferred', payload: { taskId: TASK_ID, fireAt, reason, attemptsUsed: 0 }, occurredAt: at }),
  claimed: ({ attempt = 1, daemonId = DAEMON, at = T1, startBy = T2 } = {}) =>
    taskEvent({ type: 'task.claimed', payload: { taskId: TASK_ID, attempt, daemonId, runtimeId: RUNTIME, startBy }, occurredAt: at }),
  started: ({ attempt = 1, daemonId = DAEMON, at = T2, leaseExpiresAt = T3 } = {}) =>
    taskEvent({
      type: 'task.started',
      payload: {
        taskId: TASK_ID,
        attempt,
        daemonId,
        runtimeId: RUNTIME,
        workDir: '/work/issue-42',
        resumedSessionId: null,
        leaseExpiresAt,
      },
      occurredAt: at,
    }),
  localDirectoryAwaited: ({ heldByTaskId = HOLDER_TASK, startBy = T3, at = T1 }: { heldByTaskId?: string | null; startBy?: string; at?: string } = {}) =>
    taskEvent({
      type: 'task.local_directory_awaited',
      payload: { taskId: TASK_ID, attempt: 1, daemonId: DAEMON, localPath: LOCAL_PATH, heldByTaskId, startBy },
      occurredAt: at,
    }),
  startDeadlineExtended: (startBy: string, at = NOW) =>
    taskEvent({ type: 'task.start_deadline_extended', payload: { taskId: TASK_ID, attempt: 1, daemonId: DAEMON, startBy }, occurredAt: at }),
  heartbeat: (leaseExpiresAt: string, at = NOW) =>
    taskEvent({ type: 'task.heartbeat', payload: { taskId: TASK_ID, attempt: 1, daemonId: DAEMON, leaseExpiresAt }, occurredAt: at }),
  requeued: ({
    attempt = 1,
    reason = 'not_started',
    message = 'Not started',
    at = NOW,
  }: { attempt?: number; reason?: FailureReasonOf<'task.requeued'>; message?: string; at?: string } = {}) =>
    taskEvent({ type: 'task.requeued', payload: { taskId: TASK_ID, attempt, reason, message }, occurredAt: at }),
  timedOut: (timeout: 'start_deadline' | 'lease' | 'run', { attempt = 1, limitMs = 30_000, at = NOW } = {}) =>
    taskEvent({ type: 'task.timed_out', payload: { taskId: TASK_ID, attempt, timeout, limitMs }, occurredAt: at }),
  completed: ({ attempt = 1, at = NOW, repositories = [] as RepositoryWorkResult[] } = {}) =>
    taskEvent({
      type: 'task.completed',
      payload: { taskId: TASK_ID, attempt, sessionId: 'session-1', output: 'Done.', durationMs: 1000, usage: [], repositories },
      occurredAt: at,
    }),
  failed: (overrides: Partial<PayloadOf<'task.failed'>> = {}, at = NOW) =>
    taskEvent({
      type: 'task.failed',
      payload: { taskId: TASK_ID, attempt: 1, reason: 'agent_error', message: 'boom', sessionId: null, detail: null, repositories: [], ...overrides },
      occurredAt: at,
    }),
  expired: (at = NOW) =>
    taskEvent({
      type: 'task.expired',
      payload: { taskId: TASK_ID, cause: 'runtime_offline', message: 'Runtime offline' },
      occurredAt: at,
    }),
  cancelRequested: (actor = ADA, at = NOW) =>
    taskEvent({
      type: 'task.cancel_requested',
      payload: { taskId: TASK_ID, requestedBy: actor, reason: 'Wrong issue', daemonId: DAEMON, attempt: 1 },
      occurredAt: at,
    }),
  cancelled: (attempt: number | null, actor = ADA, repositories: RepositoryWorkResult[] = []) =>
    taskEvent({
      type: 'task.cancelled',
      payload: { taskId: TASK_ID, attempt, cancelledBy: actor, reason: 'Wrong issue', repositories },
      occurredAt: NOW,
    }),
};

export const commands = {
  enqueue: (overrides: Partial<EnqueueTask> = {}): EnqueueTask => ({
    kind: 'enqueue',
    taskId: TASK_ID,
    now: T0,
    workspaceId: 'workspace-1',
    agentId: 'agent-reviewer',
    agent: AGENT,
    runtimeId: RUNTIME,
    source,
    priority: 2,
    prompt: 'Fix the flaky test',
    forceFreshSession: false,
    maxAttempts: null,
    fireAt: null,
    expiresAt: null,
    retryOfTaskId: null,
    ...overrides,
  }),
  claim: (overrides: Partial<ClaimTask> = {}): ClaimTask => ({
    kind: 'claim',
    taskId: TASK_ID,
    now: NOW,
    daemonId: DAEMON,
    runtimeIds: [RUNTIME],
    startBy: SOON,
    ...overrides,
  }),
  start: (overrides: Partial<StartTask> = {}): StartTask => ({
    kind: 'start',
    taskId: TASK_ID,
    now: NOW,
    attempt: 1,
    daemonId: DAEMON,
    workDir: '/work/issue-42',
    resumedSessionId: null,
    leaseExpiresAt: SOON,
    ...overrides,
  }),
  renew: (overrides: Partial<RenewTaskLease> = {}): RenewTaskLease => ({
    kind: 'renew',
    taskId: TASK_ID,
    now: NOW,
    attempt: 1,
    daemonId: DAEMON,
    leaseExpiresAt: SOON,
    startBy: LATER,
    ...overrides,
  }),
  awaitLocalDirectory: (overrides: Partial<AwaitLocalDirectory> = {}): AwaitLocalDirectory => ({
    kind: 'await_local_directory',
    taskId: TASK_ID,
    now: NOW,
    attempt: 1,
    daemonId: DAEMON,
    localPath: LOCAL_PATH,
    heldByTaskId: HOLDER_TASK,
    startBy: SOON,
    ...overrides,
  }),
  complete: (overrides: Partial<CompleteTask> = {}): CompleteTask => ({
    kind: 'complete',
    taskId: TASK_ID,
    now: NOW,
    attempt: 1,
    daemonId: DAEMON,
    sessionId: 'session-1',
    output: 'Done.',
    durationMs: 1000,
    usage: [],
    repositories: [],
    ...overrides,
  }),
  fail: (overrides: Partial<FailTask> = {}): FailTask => ({
    kind: 'fail',
    taskId: TASK_ID,
    now: NOW,
    attempt: 1,
    daemonId: DAEMON,
    reason: 'agent_error',
    message: 'boom',
    sessionId: null,
    detail: null,
    durationMs: null,
    repositories: [],
    ...overrides,
  }),
  requeue: (overrides: Partial<RequeueTask> = {}): RequeueTask => ({
    kind: 'requeue',
    taskId: TASK_ID,
    now: NOW,
    attempt: 1,
    daemonId: DAEMON,
    reason: 'cancelled_by_shutdown',
    message: 'Daemon shutting down',
    ...overrides,
  }),
  cancel: (overrides: Partial<CancelTask> = {}): CancelTask => ({
    kind: 'cancel',
    taskId: TASK_ID,
    now: NOW,
    requestedBy: ADA,
    reason: 'Wrong issue',
    ...overrides,
  }),
  expire: (overrides: Partial<ExpireTask> = {}): ExpireTask => ({
    kind: 'expire',
    taskId: TASK_ID,
    now: NOW,
    cause: 'runtime_offline',
    message: 'Runtime offline',
    ...overrides,
  }),
  timeout: (timeout: TimeOutTask['timeout'], overrides: Partial<TimeOutTask> = {}): TimeOutTask => ({
    kind: 'timeout',
    taskId: TASK_ID,
    now: NOW,
    attempt: 1,
    timeout,
    limitMs: 30_000,
    ...overrides,
  }),
  runtimeOffline: (overrides: Partial<FailOfflineTask> = {}): FailOfflineTask => ({
    kind: 'runtime_offline',
    taskId: TASK_ID,
    now: NOW,
    attempt: 1,
    daemonId: DAEMON,
    message: 'No heartbeat for 30 s',
    ...overrides,
  }),
};

/** Histories of the one task, by the state they lead to. */
export const histories = {
  queued: [events.enqueued()],
  deferredNotDue: [events.enqueued(), events.deferred({ fireAt: LATER })],
  deferredDue: [events.enqueued(), events.deferred({ fireAt: T1 })],
  dispatched: [events.enqueued(), events.claimed()],
  running: [events.enqueued(), events.claimed(), events.started()],
  waitingLocalDirectory: [events.enqueued(), events.claimed(), events.localDirectoryAwaited()],
  dispatchedCancelRequested: [events.enqueued(), events.claimed(), events.cancelRequested()],
  waitingCancelRequested: [events.enqueued(), events.claimed(), events.localDirectoryAwaited(), events.cancelRequested()],
  runningCancelRequested: [events.enqueued(), events.claimed(), events.started(), events.cancelRequested()],
  requeued: [events.enqueued(), events.claimed(), events.requeued()],
  completed: [events.enqueued(), events.claimed(), events.started(), events.completed()],
  failed: [events.enqueued(), events.claimed(), events.started(), events.failed()],
  expired: [events.enqueued(), events.expired()],
  cancelledWhileQueued: [events.enqueued(), events.cancelled(null)],
  cancelledWhileRunning: [events.enqueued(), events.claimed(), events.started(), events.cancelRequested(), events.cancelled(1)],
} satisfies Record<string, TaskEvent[]>;
