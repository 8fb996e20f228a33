import { checkResolveSender } from './resolve-sender.check';
import type { TaskAttempts } from './task-attempts';

// Given what the queue's record says of the task, when a daemon asks about it, then a verdict.

const HOLDER = 'daemon-holder';
const request = { taskId: 'task-2', runtimeId: 'runtime-1' };

function task(overrides: Partial<TaskAttempts> = {}): TaskAttempts {
  return { taskId: 'task-2', runtimeId: 'runtime-1', status: 'dispatched', attempt: 2, holders: new Map([[2, HOLDER]]), ...overrides };
}

describe('checkResolveSender', () => {
  it('given the sender holds the task’s live attempt on the asked runtime, allows it', () => {
    expect(checkResolveSender({ sender: HOLDER, request, task: task() })).toEqual({ verdict: 'allowed' });
    expect(checkResolveSender({ sender: HOLDER, request, task: task({ status: 'running' }) })).toEqual({ verdict: 'allowed' });
    expect(checkResolveSender({ sender: HOLDER, request, task: task({ status: 'waiting_local_directory' }) })).toEqual({ verdict: 'allowed' });
  });

  it('given another daemon holds the attempt, refuses, naming both', () => {
    expect(checkResolveSender({ sender: 'daemon-other', request, task: task() })).toEqual({
      verdict: 'refused',
      why: 'attempt 2 of task task-2 is held by daemon-holder, not daemon-other',
    });
  });

  it('given the sender held only an earlier attempt, refuses', () => {
    const retried = task({ holders: new Map([[1, HOLDER], [2, 'daemon-other']]) });
    expect(checkResolveSender({ sender: HOLDER, request, task: retried }).verdict).toBe('refused');
  });

  it('given the asked runtime is not the task’s, refuses', () => {
    expect(checkResolveSender({ sender: HOLDER, request: { ...request, runtimeId: 'runtime-2' }, task: task() })).toEqual({
      verdict: 'refused',
      why: 'task task-2 runs on runtime-1, not runtime-2',
    });
  });

  it('given the attempt is over or not yet claimed, refuses the last holder too', () => {
    for (const status of ['queued', 'deferred', 'completed', 'failed', 'cancelled'] as const) {
      expect(checkResolveSender({ sender: HOLDER, request, task: task({ status }) })).toEqual({ verdict: 'refused', why: `task task-2 has no live attempt (${status})` });
    }
  });

  it('given an unknown task, refuses', () => {
    expect(checkResolveSender({ sender: HOLDER, request, task: undefined })).toEqual({ verdict: 'refused', why: 'task task-2 is unknown' });
  });
});
