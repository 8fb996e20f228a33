import {
  ADA,
  DAEMON,
  HOLDER_TASK,
  LATER,
  LOCAL_PATH,
  NOW,
  OTHER_DAEMON,
  SOON,
  T1,
  T2,
  T3,
  commands,
  events,
  histories,
} from './task.fixtures.spec-helper';
import { given } from './task-given.spec-helper';

// A claimed attempt before its start: preparing (`dispatched`) or waiting for its local directory
// (`waiting_local_directory`). Renewals push the start deadline out; everything else works as from
// dispatched. The waiting history waits since T1 with the start deadline at T3.

describe('task decider: before the start', () => {
  describe('await local directory', () => {
    it('holds a dispatched attempt waiting for the busy path, with the start deadline pushed out', () => {
      const task = given(histories.dispatched)
        .when(commands.awaitLocalDirectory())
        .then([events.localDirectoryAwaited({ startBy: SOON, at: NOW })]);
      expect(task).toMatchObject({
        status: 'waiting_local_directory',
        startBy: SOON,
        daemonId: DAEMON,
        localDirectoryWait: { localPath: LOCAL_PATH, heldByTaskId: HOLDER_TASK, since: NOW },
      });
    });

    it('answers a repeat of the same wait already applied', () => {
      given(histories.waitingLocalDirectory).when(commands.awaitLocalDirectory()).thenAlreadyApplied();
    });

    it('records a changed holder again, keeping when the wait began', () => {
      const task = given(histories.waitingLocalDirectory)
        .when(commands.awaitLocalDirectory({ heldByTaskId: null }))
        .then([events.localDirectoryAwaited({ heldByTaskId: null, startBy: SOON, at: NOW })]);
      expect(task.localDirectoryWait).toEqual({ localPath: LOCAL_PATH, heldByTaskId: null, since: T1 });
    });

    it('does not push the deadline out once a cancel is pending', () => {
      const task = given(histories.dispatchedCancelRequested)
        .when(commands.awaitLocalDirectory())
        .then([events.localDirectoryAwaited({ startBy: T2, at: NOW })]);
      expect(task).toMatchObject({ status: 'waiting_local_directory', startBy: T2, cancelRequest: { actor: ADA } });
    });

    it('refuses a running attempt, another attempt or daemon, and a deadline not after now', () => {
      given(histories.running).when(commands.awaitLocalDirectory()).thenRefused('wrong_state');
      given(histories.dispatched).when(commands.awaitLocalDirectory({ attempt: 2 })).thenRefused('stale_attempt');
      given(histories.dispatched).when(commands.awaitLocalDirectory({ daemonId: OTHER_DAEMON })).thenRefused('stale_attempt');
      given(histories.dispatched).when(commands.awaitLocalDirectory({ startBy: NOW })).thenRefused('invalid_input');
      given(histories.completed).when(commands.awaitLocalDirectory()).thenRefused('terminal');
    });
  });

  describe('start', () => {
    it('runs a waiting attempt once its path is free, as from dispatched', () => {
      const task = given(histories.waitingLocalDirectory)
        .when(commands.start())
        .then([events.started({ at: NOW, leaseExpiresAt: SOON })]);
      expect(task).toMatchObject({ status: 'running', startBy: null, leaseExpiresAt: SOON, localDirectoryWait: null });
    });
  });

  describe('renew', () => {
    it('pushes the start deadline of a preparing or waiting attempt out', () => {
      const dispatched = given(histories.dispatched).when(commands.renew()).then([events.startDeadlineExtended(LATER)]);
      expect(dispatched).toMatchObject({ status: 'dispatched', startBy: LATER, leaseExpiresAt: null });
      const waiting = given(histories.waitingLocalDirectory).when(commands.renew()).then([events.startDeadlineExtended(LATER)]);
      expect(waiting).toMatchObject({ status: 'waiting_local_directory', startBy: LATER, localDirectoryWait: { since: T1 } });
    });

    it('keeps a renewed attempt from the start-deadline sweep until the new deadline passes', () => {
      const renewed = [...histories.waitingLocalDirectory, events.startDeadlineExtended(LATER)];
      given(renewed).when(commands.timeout('start_deadline')).thenRefused('deadline_not_passed');
      given(renewed)
        .when(commands.timeout('start_deadline', { now: LATER }))
        .then([
          events.timedOut('start_deadline', { at: LATER }),
          events.requeued({ message: 'Claimed but not started within 30000 ms', at: LATER }),
        ]);
    });

    it('does not push the deadline out once a cancel is pending', () => {
      const task = given(histories.waitingCancelRequested).when(commands.renew()).then([]);
      expect(task).toMatchObject({ startBy: T3, cancelRequest: { actor: ADA } });
    });

    it('refuses a start deadline not after now', () => {
      given(histories.waitingLocalDirectory).when(commands.renew({ startBy: NOW })).thenRefused('invalid_input');
    });
  });

  describe('ending a waiting attempt, as from dispatched', () => {
    it('requeues it when its start deadline passed, and fails not_started on the last attempt', () => {
      const task = given(histories.waitingLocalDirectory)
        .when(commands.timeout('start_deadline'))
        .then([events.timedOut('start_deadline'), events.requeued({ message: 'Claimed but not started within 30000 ms' })]);
      expect(task).toMatchObject({ status: 'queued', startBy: null, localDirectoryWait: null });
      given([events.enqueued({ maxAttempts: 1 }), events.claimed(), events.localDirectoryAwaited()])
        .when(commands.timeout('start_deadline'))
        .then([events.timedOut('start_deadline'), events.failed({ reason: 'not_started', message: 'Claimed but not started within 30000 ms' })]);
    });

    it('refuses the lease and run timeouts, which bind a running attempt only', () => {
      given(histories.waitingLocalDirectory).when(commands.timeout('lease')).thenRefused('wrong_state');
      given(histories.waitingLocalDirectory).when(commands.timeout('run')).thenRefused('wrong_state');
    });

    it('asks its daemon to stop on cancel, and ends cancelled on its next report', () => {
      given(histories.waitingLocalDirectory).when(commands.cancel()).then([events.cancelRequested()]);
      given(histories.waitingCancelRequested).when(commands.requeue()).then([events.cancelled(1)]);
      given(histories.waitingCancelRequested).when(commands.fail()).then([events.cancelled(1)]);
    });

    it('fails it when its daemon goes silent or restarts', () => {
      given(histories.waitingLocalDirectory)
        .when(commands.runtimeOffline())
        .then([events.failed({ reason: 'runtime_offline', message: 'No heartbeat for 30 s' })]);
      const restarted = { reason: 'runtime_recovery' as const, message: 'Daemon restarted' };
      given(histories.waitingLocalDirectory).when(commands.runtimeOffline(restarted)).then([events.failed(restarted)]);
    });

    it('fails it with the reason its daemon reports, e.g. the path turned out unusable', () => {
      const failure = { reason: 'local_directory_unavailable' as const, message: `${LOCAL_PATH} is not a directory` };
      const task = given(histories.waitingLocalDirectory).when(commands.fail(failure)).then([events.failed(failure)]);
      expect(task).toMatchObject({ status: 'failed', localDirectoryWait: null, startBy: null });
    });

    it('requeues it when its daemon hands it back (shutting down)', () => {
      given(histories.waitingLocalDirectory)
        .when(commands.requeue())
        .then([events.requeued({ reason: 'cancelled_by_shutdown', message: 'Daemon shutting down' })]);
    });

    it('refuses a complete before the start', () => {
      given(histories.waitingLocalDirectory).when(commands.complete()).thenRefused('wrong_state');
    });
  });
});
