import { taskEvent } from './task.events';
import {
  ADA,
  AGENT,
  BOB,
  DAEMON,
  LATER,
  NOW,
  OTHER_DAEMON,
  RUNTIME,
  SOON,
  T0,
  T1,
  T2,
  T3,
  TASK_ID,
  commands,
  events,
  histories,
} from './task.fixtures.spec-helper';
import { given } from './task-given.spec-helper';

describe('task decider', () => {
  describe('enqueue', () => {
    it('queues a new task with the default attempts and its enqueue time', () => {
      const task = given([]).when(commands.enqueue()).then([events.enqueued()]);
      expect(task).toMatchObject({ status: 'queued', attempt: 0, maxAttempts: 2, enqueuedAt: T0, version: 1, outcome: null });
    });

    it('keeps an explicit maxAttempts, expiry and retry link', () => {
      const command = commands.enqueue({ maxAttempts: 5, expiresAt: LATER, retryOfTaskId: 'task-0' });
      const task = given([]).when(command).then([events.enqueued({ maxAttempts: 5, expiresAt: LATER, retryOfTaskId: 'task-0' })]);
      expect(task).toMatchObject({ expiresAt: LATER, retryOfTaskId: 'task-0' });
    });

    it('defers a task whose fireAt is in the future (scheduled)', () => {
      const task = given([]).when(commands.enqueue({ fireAt: LATER })).then([events.enqueued(), events.deferred({ fireAt: LATER })]);
      expect(task).toMatchObject({ status: 'deferred', fireAt: LATER, version: 2 });
    });

    it('defers a retry with backoff as retry_backoff', () => {
      given([])
        .when(commands.enqueue({ fireAt: LATER, retryOfTaskId: 'task-0' }))
        .then([events.enqueued({ retryOfTaskId: 'task-0' }), events.deferred({ fireAt: LATER, reason: 'retry_backoff' })]);
    });

    it('queues at once when fireAt is not in the future', () => {
      given([]).when(commands.enqueue({ fireAt: T0 })).then([events.enqueued()]);
    });

    it('refuses maxAttempts below 1 and an expiry not after now', () => {
      given([]).when(commands.enqueue({ maxAttempts: 0 })).thenRefused('invalid_input');
      given([]).when(commands.enqueue({ expiresAt: T0 })).thenRefused('invalid_input');
    });

    it('answers a repeated enqueue already applied, and refuses other content under the same id', () => {
      given(histories.running).when(commands.enqueue()).thenAlreadyApplied();
      given(histories.queued).when(commands.enqueue({ prompt: 'Something else' })).thenRefused('already_exists');
      given(histories.queued)
        .when(commands.enqueue({ source: { kind: 'chat', chatSessionId: 'chat-1', chatMessageId: 'message-1' } }))
        .thenRefused('already_exists');
    });
  });

  describe('claim', () => {
    it('dispatches attempt 1 to the claiming daemon with its start deadline', () => {
      const task = given(histories.queued).when(commands.claim()).then([events.claimed({ at: NOW, startBy: SOON })]);
      expect(task).toMatchObject({ status: 'dispatched', attempt: 1, daemonId: DAEMON, startBy: SOON });
    });

    it('gives one claim only: a racing second claim is refused', () => {
      given([...histories.queued, events.claimed()]).when(commands.claim({ daemonId: OTHER_DAEMON })).thenRefused('wrong_state');
    });

    it('numbers the next attempt after a requeue', () => {
      given(histories.requeued)
        .when(commands.claim({ daemonId: OTHER_DAEMON }))
        .then([events.claimed({ attempt: 2, daemonId: OTHER_DAEMON, at: NOW, startBy: SOON })]);
    });

    it('claims a deferred task once due, and not before', () => {
      given(histories.deferredDue).when(commands.claim()).then([events.claimed({ at: NOW, startBy: SOON })]);
      given(histories.deferredNotDue).when(commands.claim()).thenRefused('not_due');
    });

    it('refuses a daemon that does not serve the runtime', () => {
      given(histories.queued).when(commands.claim({ runtimeIds: ['runtime-codex'] })).thenRefused('runtime_mismatch');
    });

    it('refuses a claim past the task expiry', () => {
      given([events.enqueued({ expiresAt: T1 })]).when(commands.claim()).thenRefused('past_expiry');
    });

    it('refuses a start deadline not after now', () => {
      given(histories.queued).when(commands.claim({ startBy: NOW })).thenRefused('invalid_input');
    });
  });

  describe('start', () => {
    it('runs the dispatched attempt with its lease', () => {
      const started = taskEvent({
        type: 'task.started',
        payload: {
          taskId: TASK_ID,
          attempt: 1,
          daemonId: DAEMON,
          runtimeId: RUNTIME,
          workDir: '/work/issue-42',
          resumedSessionId: 'session-0',
          leaseExpiresAt: SOON,
        },
        occurredAt: NOW,
      });
      const task = given(histories.dispatched).when(commands.start({ resumedSessionId: 'session-0' })).then([started]);
      expect(task).toMatchObject({ status: 'running', leaseExpiresAt: SOON, startBy: null });
    });

    it('refuses another attempt or another daemon as stale', () => {
      given(histories.dispatched).when(commands.start({ attempt: 2 })).thenRefused('stale_attempt');
      given(histories.dispatched).when(commands.start({ daemonId: OTHER_DAEMON })).thenRefused('stale_attempt');
    });

    it('answers a repeated start already applied', () => {
      given(histories.running).when(commands.start()).thenAlreadyApplied();
    });

    it('refuses a lease not after now', () => {
      given(histories.dispatched).when(commands.start({ leaseExpiresAt: NOW })).thenRefused('invalid_input');
    });
  });

  describe('renew', () => {
    it('extends the lease of the running attempt', () => {
      const task = given(histories.running).when(commands.renew()).then([events.heartbeat(SOON)]);
      expect(task).toMatchObject({ leaseExpiresAt: SOON, cancelRequest: null });
    });

    it('does not extend the lease once a cancel is pending; the state tells the daemon', () => {
      const history = histories.runningCancelRequested;
      const task = given(history).when(commands.renew()).then([]);
      expect(task).toMatchObject({ leaseExpiresAt: T3, cancelRequest: { actor: ADA, reason: 'Wrong issue', requestedAt: NOW } });
    });

    it('refuses a stale attempt and a lease not after now', () => {
      given(histories.running).when(commands.renew({ attempt: 2 })).thenRefused('stale_attempt');
      given(histories.running).when(commands.renew({ leaseExpiresAt: NOW })).thenRefused('invalid_input');
    });
  });

  describe('complete', () => {
    it('completes the running attempt', () => {
      const task = given(histories.running).when(commands.complete()).then([events.completed()]);
      expect(task).toMatchObject({
        status: 'completed',
        leaseExpiresAt: null,
        outcome: { status: 'completed', attempt: 1, sessionId: 'session-1', at: NOW },
        version: 4,
      });
    });

    it('gives one terminal event for a duplicate complete', () => {
      given(histories.completed).when(commands.complete()).thenAlreadyApplied();
    });

    it('never lets a late report of an old attempt overwrite the new one or a terminal state', () => {
      const reclaimed = [...histories.requeued, events.claimed({ attempt: 2, daemonId: OTHER_DAEMON, at: NOW, startBy: SOON })];
      given(reclaimed).when(commands.complete()).thenRefused('stale_attempt');
      given([...histories.failed]).when(commands.complete()).thenRefused('terminal');
      given(histories.completed).when(commands.complete({ daemonId: OTHER_DAEMON })).thenRefused('terminal');
    });
  });

  describe('fail', () => {
    it('fails a running attempt with the reported reason', () => {
      const command = commands.fail({ reason: 'context_overflow', message: 'Too long', sessionId: 'session-1', detail: 'stderr tail' });
      const failed = events.failed({ reason: 'context_overflow', message: 'Too long', sessionId: 'session-1', detail: 'stderr tail' });
      const task = given(histories.running).when(command).then([failed]);
      expect(task.outcome).toEqual({
        status: 'failed',
        reason: 'context_overflow',
        message: 'Too long',
        attempt: 1,
        sessionId: 'session-1',
        at: NOW,
      });
    });

    it('fails a dispatched attempt whose exec env could not be prepared', () => {
      given(histories.dispatched)
        .when(commands.fail({ reason: 'exec_env_failed', message: 'No space' }))
        .then([events.failed({ reason: 'exec_env_failed', message: 'No space' })]);
    });

    it('answers an exact repeat already applied, and a different failure terminal', () => {
      given(histories.failed).when(commands.fail()).thenAlreadyApplied();
      given(histories.failed).when(commands.fail({ reason: 'timeout' })).thenRefused('terminal');
      given(histories.failed).when(commands.fail({ message: 'other' })).thenRefused('terminal');
    });
  });

  describe('requeue', () => {
    it('queues a claimed attempt that was handed back while attempts remain', () => {
      const task = given(histories.dispatched)
        .when(commands.requeue())
        .then([events.requeued({ reason: 'cancelled_by_shutdown', message: 'Daemon shutting down' })]);
      expect(task).toMatchObject({ status: 'queued', attempt: 1, startBy: null });
    });

    it('fails the task when the handed-back attempt was the last', () => {
      const history = [events.enqueued({ maxAttempts: 1 }), events.claimed()];
      given(history)
        .when(commands.requeue())
        .then([events.failed({ reason: 'cancelled_by_shutdown', message: 'Daemon shutting down' })]);
      given([...history, events.failed({ reason: 'cancelled_by_shutdown', message: 'Daemon shutting down' })])
        .when(commands.requeue())
        .thenAlreadyApplied();
    });

    it('refuses to requeue a running attempt', () => {
      given(histories.running).when(commands.requeue()).thenRefused('wrong_state');
    });
  });

  describe('cancel', () => {
    it('cancels a queued or deferred task at once, with who and why', () => {
      const task = given(histories.queued).when(commands.cancel()).then([events.cancelled(null)]);
      expect(task.outcome).toEqual({ status: 'cancelled', actor: ADA, reason: 'Wrong issue', attempt: null, at: NOW });
      given(histories.deferredNotDue).when(commands.cancel()).then([events.cancelled(null)]);
      given(histories.requeued).when(commands.cancel()).then([events.cancelled(null)]);
    });

    it('asks the daemon of a live attempt first', () => {
      const task = given(histories.running).when(commands.cancel()).then([events.cancelRequested()]);
      expect(task).toMatchObject({ status: 'running', cancelRequest: { actor: ADA, reason: 'Wrong issue' } });
      given(histories.dispatched).when(commands.cancel()).then([events.cancelRequested()]);
    });

    it('ends cancelled by the requester whatever the attempt reports next', () => {
      const cancelled = [events.cancelled(1)];
      expect(given(histories.runningCancelRequested).when(commands.complete()).then(cancelled).outcome).toMatchObject({ actor: ADA });
      given(histories.runningCancelRequested).when(commands.fail()).then(cancelled);
      given(histories.dispatchedCancelRequested).when(commands.requeue()).then(cancelled);
      given(histories.runningCancelRequested).when(commands.runtimeOffline()).then(cancelled);
      given(histories.runningCancelRequested).when(commands.timeout('lease')).then([events.timedOut('lease'), ...cancelled]);
      given(histories.dispatchedCancelRequested)
        .when(commands.timeout('start_deadline'))
        .then([events.timedOut('start_deadline'), ...cancelled]);
    });

    it('lets a daemon that raced the cancel still start; the cancel stays pending', () => {
      const started = events.started({ at: NOW, leaseExpiresAt: SOON });
      const task = given(histories.dispatchedCancelRequested).when(commands.start()).then([started]);
      expect(task).toMatchObject({ status: 'running', cancelRequest: { actor: ADA } });
    });

    it('does not revive a cancelled task with a late complete', () => {
      given(histories.cancelledWhileRunning).when(commands.complete()).thenAlreadyApplied();
      given(histories.cancelledWhileQueued).when(commands.complete()).thenRefused('terminal');
      given(histories.cancelledWhileRunning).when(commands.complete({ attempt: 2 })).thenRefused('terminal');
    });

    it('keeps the first requester of a pending cancel', () => {
      given(histories.runningCancelRequested).when(commands.cancel({ requestedBy: BOB })).thenAlreadyApplied();
    });

    it('answers a repeated cancel already applied, another actor terminal', () => {
      given(histories.cancelledWhileQueued).when(commands.cancel()).thenAlreadyApplied();
      given(histories.cancelledWhileRunning).when(commands.cancel()).thenAlreadyApplied();
      given(histories.cancelledWhileQueued).when(commands.cancel({ requestedBy: BOB })).thenRefused('terminal');
      given(histories.cancelledWhileQueued).when(commands.cancel({ reason: null })).thenRefused('terminal');
      given(histories.completed).when(commands.cancel()).thenRefused('terminal');
    });
  });

  describe('expire', () => {
    it('fails a queued task nobody claimed in time with reason expired', () => {
      const task = given(histories.queued).when(commands.expire()).then([events.expired()]);
      const outcome = { status: 'failed', reason: 'expired', message: 'Runtime offline', attempt: 0, sessionId: null, at: NOW };
      expect(task.outcome).toEqual(outcome);
      given(histories.deferredNotDue).when(commands.expire()).then([events.expired()]);
    });

    it('answers a repeat already applied and refuses a live task', () => {
      given(histories.expired).when(commands.expire()).thenAlreadyApplied();
      given(histories.running).when(commands.expire()).thenRefused('wrong_state');
    });
  });

  describe('timeout', () => {
    it('requeues a claimed task that did not start in time', () => {
      const requeued = events.requeued({ message: 'Claimed but not started within 30000 ms' });
      const task = given(histories.dispatched).when(commands.timeout('start_deadline')).then([events.timedOut('start_deadline'), requeued]);
      expect(task).toMatchObject({ status: 'queued', attempt: 1 });
    });

    it('fails it when that was the last attempt', () => {
      const history = [...histories.requeued, events.claimed({ attempt: 2, daemonId: OTHER_DAEMON, at: NOW, startBy: SOON })];
      const failed = events.failed({ attempt: 2, reason: 'not_started', message: 'Claimed but not started within 30000 ms' }, LATER);
      given(history)
        .when(commands.timeout('start_deadline', { attempt: 2, now: LATER }))
        .then([events.timedOut('start_deadline', { attempt: 2, at: LATER }), failed]);
      given([...history, events.timedOut('start_deadline', { attempt: 2 }), failed])
        .when(commands.timeout('start_deadline', { attempt: 2 }))
        .thenAlreadyApplied();
    });

    it('fails a running attempt whose lease or run budget ran out', () => {
      given(histories.running)
        .when(commands.timeout('lease'))
        .then([events.timedOut('lease'), events.failed({ reason: 'timeout', message: 'Lease not renewed for 30000 ms' })]);
      given(histories.running)
        .when(commands.timeout('run', { limitMs: 3_600_000 }))
        .then([events.timedOut('run', { limitMs: 3_600_000 }), events.failed({ reason: 'timeout', message: 'Run exceeded 3600000 ms' })]);
    });

    it('refuses a timeout before its deadline, e.g. when a renewal won the race', () => {
      given(histories.dispatched).when(commands.timeout('start_deadline', { now: T1 })).thenRefused('deadline_not_passed');
      given([...histories.running, events.heartbeat(LATER)]).when(commands.timeout('lease')).thenRefused('deadline_not_passed');
      given(histories.running).when(commands.timeout('lease', { now: T2 })).thenRefused('deadline_not_passed');
    });

    it('refuses a timeout of an attempt that is no longer live', () => {
      given(histories.running).when(commands.timeout('lease', { attempt: 2 })).thenRefused('stale_attempt');
      given(histories.failed).when(commands.timeout('lease')).thenRefused('terminal');
    });
  });

  describe('runtime offline', () => {
    it('fails the live attempt of a silent daemon', () => {
      const failed = events.failed({ reason: 'runtime_offline', message: 'No heartbeat for 30 s' });
      given(histories.running).when(commands.runtimeOffline()).then([failed]);
      given(histories.dispatched).when(commands.runtimeOffline()).then([failed]);
      given([...histories.running, failed]).when(commands.runtimeOffline()).thenAlreadyApplied();
    });

    it('fails the live attempt of a restarted daemon as runtime_recovery, once', () => {
      const restarted = { reason: 'runtime_recovery' as const, message: 'Daemon d restarted; the run was lost with it' };
      const failed = events.failed(restarted);
      given(histories.running).when(commands.runtimeOffline(restarted)).then([failed]);
      given([...histories.running, failed]).when(commands.runtimeOffline(restarted)).thenAlreadyApplied();
    });

    it('refuses an attempt that moved to another daemon', () => {
      const reclaimed = [...histories.requeued, events.claimed({ attempt: 2, daemonId: OTHER_DAEMON, at: NOW, startBy: SOON })];
      given(reclaimed).when(commands.runtimeOffline({ attempt: 1 })).thenRefused('stale_attempt');
      given(reclaimed).when(commands.runtimeOffline({ attempt: 2 })).thenRefused('stale_attempt');
    });
  });

  describe('unknown task', () => {
    it('refuses every command but enqueue as not found', () => {
      given([]).when(commands.claim()).thenRefused('not_found');
      given([]).when(commands.cancel()).thenRefused('not_found');
    });
  });

  describe('evolve', () => {
    it('rebuilds the whole state of a story from its events', () => {
      const story = [
        events.enqueued({ expiresAt: LATER }),
        events.deferred({ fireAt: T1 }),
        events.claimed(),
        events.started(),
        events.heartbeat(SOON),
        events.completed({ at: SOON }),
      ];
      expect(given(story).state).toEqual({
        exists: true,
        taskId: TASK_ID,
        workspaceId: 'workspace-1',
        agentId: 'agent-reviewer',
        agent: AGENT,
        runtimeId: RUNTIME,
        source: { kind: 'issue', issueId: 'issue-42', trigger: 'assignment', commentId: null },
        priority: 2,
        prompt: 'Fix the flaky test',
        forceFreshSession: false,
        maxAttempts: 2,
        attempt: 1,
        status: 'completed',
        fireAt: T1,
        expiresAt: LATER,
        queuedTtlMs: null,
        daemonId: DAEMON,
        startBy: null,
        leaseExpiresAt: null,
        cancelRequest: null,
        localDirectoryWait: null,
        outcome: { status: 'completed', attempt: 1, sessionId: 'session-1', at: SOON },
        repositories: [],
        retryOfTaskId: null,
        enqueuedAt: T0,
        queuedAt: T0,
        version: 6,
      });
    });

    it('ignores anything before task.enqueued', () => {
      expect(given([events.claimed()]).state).toEqual({ exists: false, version: 0 });
    });

    it('counts a timed_out fact as a version without changing the state', () => {
      const before = given(histories.running).state;
      expect(given([...histories.running, events.timedOut('lease')]).state).toEqual({ ...before, version: before.version + 1 });
    });
  });
});
