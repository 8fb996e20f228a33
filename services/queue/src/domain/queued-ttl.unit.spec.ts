import { planRetry, type RetryCircumstances } from './retry.policy';
import { LATER, NOW, TASK_ID, commands, events, histories } from './task.fixtures.spec-helper';
import { fold, given } from './task-given.spec-helper';

// Queue ageing: a task's TTL rides on its enqueue so that its automatic retry gets the same TTL on
// a clock of its own: enqueued at T0 with a deadline T0 + 10 min, failed at NOW, past that deadline.
const TEN_MINUTES_MS = 10 * 60 * 1000;
const T0_PLUS_TTL = '2025-06-01T12:10:00.000Z';
const NOW_PLUS_TTL = '2025-06-01T12:15:00.000Z';
const LATER_PLUS_TTL = '2025-06-01T13:10:00.000Z';

const circumstances: RetryCircumstances = { rerunPending: false, sessionPoisoned: false, retryAt: null, now: new Date(NOW) };
const failedWithTtl = [
  events.enqueued({ expiresAt: T0_PLUS_TTL, queuedTtlMs: TEN_MINUTES_MS }),
  ...histories.running.slice(1),
  events.failed({ reason: 'runtime_offline', message: 'No heartbeat for 30 s' }),
];

describe('queued TTL', () => {
  describe('enqueue', () => {
    it('given no task, when enqueued with a TTL, then the event and the state keep it beside the deadline', () => {
      const task = given([])
        .when(commands.enqueue({ expiresAt: T0_PLUS_TTL, queuedTtlMs: TEN_MINUTES_MS }))
        .then([events.enqueued({ expiresAt: T0_PLUS_TTL, queuedTtlMs: TEN_MINUTES_MS })]);
      expect(task).toMatchObject({ expiresAt: T0_PLUS_TTL, queuedTtlMs: TEN_MINUTES_MS });
    });

    it('given no task, when enqueued without a TTL, then the event has no TTL field, as events before queue ageing', () => {
      const task = given([]).when(commands.enqueue({ expiresAt: LATER })).then([events.enqueued({ expiresAt: LATER })]);
      expect(task).toMatchObject({ expiresAt: LATER, queuedTtlMs: null });
    });

    it('given no task, when a TTL comes without the deadline it was computed for, then it is refused invalid_input', () => {
      given([]).when(commands.enqueue({ expiresAt: null, queuedTtlMs: TEN_MINUTES_MS })).thenRefused('invalid_input');
    });

    it('given a task enqueued with a TTL, when enqueued again with another TTL, then it is refused already_exists', () => {
      const queued = [events.enqueued({ expiresAt: T0_PLUS_TTL, queuedTtlMs: TEN_MINUTES_MS })];
      given(queued).when(commands.enqueue({ expiresAt: T0_PLUS_TTL, queuedTtlMs: TEN_MINUTES_MS })).thenAlreadyApplied();
      given(queued).when(commands.enqueue({ expiresAt: T0_PLUS_TTL, queuedTtlMs: 60_000 })).thenRefused('already_exists');
    });
  });

  describe('retry', () => {
    it('given a failed task with a TTL, when retried at once, then the retry expires a TTL after now, not at the original deadline', () => {
      expect(planRetry(fold(failedWithTtl), circumstances)).toMatchObject({
        retry: true,
        enqueue: { fireAt: null, expiresAt: NOW_PLUS_TTL, queuedTtlMs: TEN_MINUTES_MS, retryOfTaskId: TASK_ID },
      });
    });

    it('given a failed task with a TTL, when retried after a backoff, then the TTL counts from the retry’s fire time', () => {
      expect(planRetry(fold(failedWithTtl), { ...circumstances, retryAt: LATER })).toMatchObject({
        retry: true,
        enqueue: { fireAt: LATER, expiresAt: LATER_PLUS_TTL, queuedTtlMs: TEN_MINUTES_MS },
      });
    });

    it('given a failed task with an absolute deadline and no TTL, when retried, then the retry never expires', () => {
      const failed = fold([events.enqueued({ expiresAt: LATER }), ...histories.running.slice(1), events.failed({ reason: 'runtime_offline' })]);
      expect(planRetry(failed, circumstances)).toMatchObject({ retry: true, enqueue: { expiresAt: null, queuedTtlMs: null } });
    });

    it('given the planned retry, when the decider enqueues it, then its event carries its own deadline and the TTL again', () => {
      const plan = planRetry(fold(failedWithTtl), { ...circumstances, retryAt: LATER });
      if (!plan.retry) throw new Error('expected a retry');
      given([])
        .when({ kind: 'enqueue', taskId: 'task-2', now: NOW, ...plan.enqueue })
        .then([
          events.enqueued({ taskId: 'task-2', maxAttempts: 1, expiresAt: LATER_PLUS_TTL, queuedTtlMs: TEN_MINUTES_MS, retryOfTaskId: TASK_ID }, NOW),
          { ...events.deferred({ fireAt: LATER, reason: 'retry_backoff', at: NOW }), payload: { taskId: 'task-2', fireAt: LATER, reason: 'retry_backoff', attemptsUsed: 0 } },
        ]);
    });
  });
});
