import { DEFAULT_MAX_ATTEMPTS, planRetry, type RetryCircumstances } from './retry.policy';
import { decide } from './task.decider';
import { AGENT, LATER, NOW, TASK_ID, events, histories } from './task.fixtures.spec-helper';
import { fold, given, present } from './task-given.spec-helper';

const usual: RetryCircumstances = { rerunPending: false, sessionPoisoned: false, retryAt: null, now: new Date(NOW) };
const offline = events.failed({ reason: 'runtime_offline', message: 'No heartbeat for 30 s' });
const failedOffline = [...histories.running, offline];

describe('retry policy', () => {
  it('counts the first run: two attempts by default', () => {
    expect(DEFAULT_MAX_ATTEMPTS).toBe(2);
  });

  it('given a transient failure with attempts left, plans a new task linked to the failed one', () => {
    expect(planRetry(fold(failedOffline), usual)).toEqual({
      retry: true,
      enqueue: {
        workspaceId: 'workspace-1',
        agentId: 'agent-reviewer',
        agent: AGENT,
        runtimeId: 'runtime-claude-laptop-7',
        source: { kind: 'issue', issueId: 'issue-42', trigger: 'assignment', commentId: null },
        priority: 2,
        prompt: 'Fix the flaky test',
        forceFreshSession: false,
        maxAttempts: 1,
        fireAt: null,
        expiresAt: null,
        queuedTtlMs: null,
        retryOfTaskId: TASK_ID,
      },
    });
  });

  it('defers the retry when a backoff time is given', () => {
    const plan = planRetry(fold(failedOffline), { ...usual, retryAt: LATER });
    expect(plan).toMatchObject({ retry: true, enqueue: { fireAt: LATER } });
  });

  it.each(['runtime_offline', 'runtime_recovery', 'cancelled_by_shutdown', 'not_started', 'timeout', 'provider_network', 'provider_error', 'rate_limited', 'context_overflow'] as const)(
    'retries the transient reason %s',
    (reason) => {
      expect(planRetry(fold([...histories.running, events.failed({ reason })]), usual)).toMatchObject({ retry: true });
    },
  );

  const permanent = [
    'agent_error',
    'resume_rejected',
    'invalid_output',
    'auth_failed',
    'invalid_request',
    'iteration_limit',
    'exec_env_failed',
    'internal',
  ] as const;
  it.each(permanent)(
    'does not retry the non-transient reason %s',
    (reason) => {
      const failed = fold([...histories.running, events.failed({ reason })]);
      expect(planRetry(failed, usual)).toEqual({ retry: false, because: 'not_transient' });
    },
  );

  it('does not retry an expired task', () => {
    expect(planRetry(fold(histories.expired), usual)).toEqual({ retry: false, because: 'not_transient' });
  });

  it('only plans for failed tasks', () => {
    for (const history of [[], histories.running, histories.completed, histories.cancelledWhileRunning]) {
      expect(planRetry(fold(history), usual)).toEqual({ retry: false, because: 'not_failed' });
    }
  });

  it('stops when the attempts are used up, also across requeues', () => {
    const requeuedThenOffline = [
      ...histories.requeued,
      events.claimed({ attempt: 2, daemonId: 'daemon-b', at: NOW, startBy: LATER }),
      events.started({ attempt: 2, daemonId: 'daemon-b', at: NOW, leaseExpiresAt: LATER }),
      events.failed({ attempt: 2, reason: 'runtime_offline' }),
    ];
    expect(planRetry(fold(requeuedThenOffline), usual)).toEqual({ retry: false, because: 'attempts_exhausted' });
  });

  it('lets a pending rerun win over the automatic retry', () => {
    expect(planRetry(fold(failedOffline), { ...usual, rerunPending: true })).toEqual({ retry: false, because: 'rerun_pending' });
  });

  describe('session', () => {
    const forcedFresh = (sessionId: string | null) => [
      events.enqueued({ forceFreshSession: true }),
      events.claimed(),
      events.started(),
      events.failed({ reason: 'provider_network', sessionId }),
    ];

    it('continues the session unless it is poisoned', () => {
      expect(planRetry(fold(failedOffline), { ...usual, sessionPoisoned: true })).toMatchObject({ enqueue: { forceFreshSession: true } });
    });

    it('keeps a forced-fresh task fresh when its attempt left no session', () => {
      expect(planRetry(fold(forcedFresh(null)), usual)).toMatchObject({ enqueue: { forceFreshSession: true } });
    });

    it('continues the session a forced-fresh attempt started', () => {
      expect(planRetry(fold(forcedFresh('session-new')), usual)).toMatchObject({ enqueue: { forceFreshSession: false } });
    });
  });

  describe('with the decider', () => {
    it('enqueues the planned retry as a linked task that gets the attempts left', () => {
      const plan = planRetry(fold(failedOffline), usual);
      if (!plan.retry) throw new Error('expected a retry');
      const retry = given([])
        .when({ kind: 'enqueue', taskId: 'task-2', now: NOW, ...plan.enqueue })
        .then([events.enqueued({ taskId: 'task-2', maxAttempts: 1, retryOfTaskId: TASK_ID }, NOW)]);
      expect(retry).toMatchObject({ retryOfTaskId: TASK_ID, maxAttempts: 1, attempt: 0 });
    });

    it('bounds the chain: the retry of a retry is not planned once attempts are gone', () => {
      const plan = planRetry(fold(failedOffline), { ...usual, retryAt: LATER });
      if (!plan.retry) throw new Error('expected a retry');
      const enqueue = decide({ kind: 'enqueue', taskId: TASK_ID, now: NOW, ...plan.enqueue }, fold([]));
      if (!enqueue.ok) throw new Error('expected the retry to enqueue');
      expect(enqueue.events.map((event) => event.type)).toEqual(['task.enqueued', 'task.deferred']);
      expect(enqueue.events[1]).toMatchObject({ payload: { reason: 'retry_backoff', fireAt: LATER } });
      const retryFailed = [
        ...enqueue.events,
        events.claimed({ at: LATER, startBy: LATER }),
        events.started({ at: LATER, leaseExpiresAt: LATER }),
        events.failed({ reason: 'runtime_offline' }, LATER),
      ];
      expect(present(fold(retryFailed)).maxAttempts).toBe(1);
      expect(planRetry(fold(retryFailed), usual)).toEqual({ retry: false, because: 'attempts_exhausted' });
    });
  });
});
