import {
  TASK_FAILURE_REASONS,
  TASK_STATES,
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
      ['cancelled_by_shutdown', 'not_started', 'provider_network', 'runtime_offline', 'runtime_recovery', 'timeout'].sort(),
    );
  });

  it('validate against the table', () => {
    expect(taskFailureReasonSchema.parse('runtime_offline')).toBe('runtime_offline');
    expect(taskFailureReasonSchema.safeParse('boom').success).toBe(false);
  });
});
