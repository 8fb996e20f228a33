import type { CommandReply, TaskLeaseResult } from '@switchyard/contracts';
import { LiveAttemptLeases, keepAttemptLease } from './attempt-lease.keeper';

const TASK = { taskId: 'task-1', attempt: 1, leaseToken: 'lease-1' };

function fakeQueue(replies: Array<CommandReply<TaskLeaseResult>>) {
  const sent: unknown[] = [];
  const ok: CommandReply<TaskLeaseResult> = { ok: true, result: { leaseExpiresAt: '2030-01-01T00:00:00.000Z', cancelRequested: false } };
  return {
    sent,
    send: (name: 'task.renew', payload: unknown) => {
      sent.push({ name, payload });
      return Promise.resolve(replies.shift() ?? ok);
    },
  };
}

describe('the attempt lease keeper', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('renews with the lease token on every interval until the attempt ends, with or without a CLI running', async () => {
    const queue = fakeQueue([]);
    const lease = keepAttemptLease({ task: TASK, daemonId: 'daemon-1', queue: queue as never, renewEveryMs: 1_000 });

    await jest.advanceTimersByTimeAsync(3_000);
    lease.end();
    await jest.advanceTimersByTimeAsync(3_000);

    expect(queue.sent).toEqual(Array(3).fill({ name: 'task.renew', payload: { taskId: 'task-1', attempt: 1, daemonId: 'daemon-1', leaseToken: 'lease-1' } }));
  });

  it('stops the running CLI when a renewal says a cancel is pending, and keeps a stop heard between CLIs for the next one', async () => {
    const cancelPending: CommandReply<TaskLeaseResult> = { ok: true, result: { leaseExpiresAt: '2030-01-01T00:00:00.000Z', cancelRequested: true } };
    const queue = fakeQueue([cancelPending]);
    const lease = keepAttemptLease({ task: TASK, daemonId: 'daemon-1', queue: queue as never, renewEveryMs: 1_000 });
    const stops: string[] = [];

    await jest.advanceTimersByTimeAsync(1_000);
    expect(stops).toEqual([]);
    const undo = lease.onStopRequested(() => {
      stops.push('fresh CLI');
      return Promise.resolve();
    });
    await jest.advanceTimersByTimeAsync(0);
    expect(stops).toEqual(['fresh CLI']);
    undo();
    lease.end();
  });

  it('stops the CLI when the queue refuses the renewal (it gave the attempt up)', async () => {
    const queue = fakeQueue([{ ok: false, error: { code: 'stale_attempt', message: 'requeued', retryable: false } }]);
    const lease = keepAttemptLease({ task: TASK, daemonId: 'daemon-1', queue: queue as never, renewEveryMs: 1_000 });
    const stops: string[] = [];
    lease.onStopRequested(() => {
      stops.push('CLI');
      return Promise.resolve();
    });

    await jest.advanceTimersByTimeAsync(1_000);
    lease.end();

    expect(stops).toEqual(['CLI']);
  });

  it('keeps the run through a refusal the queue marks retryable and through a renewal that goes unanswered (the grace covers it)', async () => {
    const queue = fakeQueue([{ ok: false, error: { code: 'unavailable', message: 'database away', retryable: true } }]);
    const unanswered = { send: () => Promise.reject(new Error('request timed out')) };
    const stops: string[] = [];
    for (const candidate of [queue, unanswered]) {
      const lease = keepAttemptLease({ task: TASK, daemonId: 'daemon-1', queue: candidate as never, renewEveryMs: 1_000 });
      lease.onStopRequested(() => {
        stops.push('CLI');
        return Promise.resolve();
      });
      expect(await lease.renewNow()).toBe('unanswered');
      lease.end();
    }
    expect(stops).toEqual([]);
  });

  it('renews every live lease at once on request, stops the runs whose attempt was given up, and forgets ended leases', async () => {
    const live = new LiveAttemptLeases();
    const kept = keepAttemptLease({ task: TASK, daemonId: 'daemon-1', queue: fakeQueue([]) as never, renewEveryMs: 60_000, live });
    const givenUp = keepAttemptLease({
      task: { ...TASK, taskId: 'task-2' },
      daemonId: 'daemon-1',
      queue: fakeQueue([{ ok: false, error: { code: 'terminal_state', message: 'failed runtime_offline', retryable: false } }]) as never,
      renewEveryMs: 60_000,
      live,
    });
    const stops: string[] = [];
    givenUp.onStopRequested(() => {
      stops.push('task-2');
      return Promise.resolve();
    });

    expect(await live.renewAll()).toEqual({ kept: 1, stop: 1, unanswered: 0 });
    expect(stops).toEqual(['task-2']);
    expect([kept.refusal(), givenUp.refusal()]).toEqual([undefined, { code: 'terminal_state', message: 'failed runtime_offline' }]);
    kept.end();
    givenUp.end();
    expect(live.size).toBe(0);
  });
});
