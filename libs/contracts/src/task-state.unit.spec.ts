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

  it('hold a claimed attempt waiting for its local directory between dispatched and running', () => {
    expect(TASK_STATES.slice(TASK_STATES.indexOf('dispatched'), TASK_STATES.indexOf('running') + 1)).toEqual(['dispatched', 'waiting_local_directory', 'running']);
  });
});

describe('task failure reasons', () => {
  it('retry only the transient reasons of the design', () => {
    const reasons = Object.keys(TASK_FAILURE_REASONS) as TaskFailureReason[];
    const transient = reasons.filter((reason) => isTransientFailureReason(reason));
    expect(transient.sort()).toEqual(
      [
        'cancelled_by_shutdown',
        'context_overflow',
        'disk_full',
        'not_started',
        'provider_error',
        'provider_network',
        'rate_limited',
        'repo_unavailable',
        'runtime_offline',
        'runtime_recovery',
        'timeout',
      ].sort(),
    );
  });

  it('poison the session for an overflow, a refused request and the iteration limit only', () => {
    const reasons = Object.keys(TASK_FAILURE_REASONS) as TaskFailureReason[];
    expect(reasons.filter((reason) => failureReasonPoisonsSession(reason)).sort()).toEqual(['context_overflow', 'invalid_request', 'iteration_limit']);
  });

  it('never retry a refused credential or request', () => {
    expect([isTransientFailureReason('auth_failed'), isTransientFailureReason('invalid_request')]).toEqual([false, false]);
  });

  it('retry an unreachable remote and a full disk, never a refused credential, a branch conflict or a bad local path', () => {
    const repositoryReasons: TaskFailureReason[] = ['repo_unavailable', 'disk_full', 'repo_auth_failed', 'repo_branch_conflict', 'local_directory_unavailable'];
    expect(repositoryReasons.map((reason) => isTransientFailureReason(reason))).toEqual([true, true, false, false, false]);
  });

  it('validate against the table', () => {
    expect(taskFailureReasonSchema.parse('runtime_offline')).toBe('runtime_offline');
    expect(taskFailureReasonSchema.safeParse('boom').success).toBe(false);
  });
});
