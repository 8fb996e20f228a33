import {
  TASK_FAILURE_REASONS,
  TASK_STATES,
  failureReasonPoisonsSession,
  isTerminalTaskState,
  isTransientFailureReason,
  taskFailureReasonSchema,
  type TaskFailureReason,
} from './task-state';

describe('task states', () => {
  it('are terminal exactly for completed, failed and cancelled', () => {
    expect(TASK_STATES.filter(isTerminalTaskState)).toEqual(['completed', 'failed', 'cancelled']);
  });
});

describe('task failure reasons', () => {
  it('retry only the transient reasons of the design', () => {
    const reasons = Object.keys(TASK_FAILURE_REASONS) as TaskFailureReason[];
    const transient = reasons.filter((reason) => isTransientFailureReason(reason));
    expect(transient.sort()).toEqual(
      ['cancelled_by_shutdown', 'context_overflow', 'not_started', 'provider_error', 'provider_network', 'rate_limited', 'runtime_offline', 'runtime_recovery', 'timeout'].sort(),
    );
  });

  it('poison the session for an overflow, a refused request and the iteration limit only', () => {
    const reasons = Object.keys(TASK_FAILURE_REASONS) as TaskFailureReason[];
    expect(reasons.filter((reason) => failureReasonPoisonsSession(reason)).sort()).toEqual(['context_overflow', 'invalid_request', 'iteration_limit']);
  });

  it('never retry a refused credential or request', () => {
    expect([isTransientFailureReason('auth_failed'), isTransientFailureReason('invalid_request')]).toEqual([false, false]);
  });

  it('validate against the table', () => {
    expect(taskFailureReasonSchema.parse('runtime_offline')).toBe('runtime_offline');
    expect(taskFailureReasonSchema.safeParse('boom').success).toBe(false);
  });
});
