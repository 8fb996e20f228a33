import { createEvent, subjects } from '@switchyard/contracts';
import { checkSessionPublisher, senderOfSessionEvent } from './session-publisher.check';
import type { TaskAttempts } from './task-attempts';

// Given the queue's record of the task, when a daemon's session event arrives, then a verdict.

const HOLDER = 'daemon-holder';
const pinned = (overrides: { attempt?: number; runtimeId?: string } = {}) =>
  createEvent({ type: 'session.pinned', payload: { sessionId: 'session-a', taskId: 'task-1', attempt: 1, runtimeId: 'runtime-1', workDir: '/w/1', ...overrides } });
const retired = (taskId: string | null = 'task-1') => createEvent({ type: 'session.retired', payload: { sessionId: 'session-a', taskId, reason: 'resume_rejected', message: null } });

function task(overrides: Partial<TaskAttempts> = {}): TaskAttempts {
  return { taskId: 'task-1', runtimeId: 'runtime-1', status: 'running', attempt: 2, holders: new Map([[1, HOLDER], [2, 'daemon-second']]), ...overrides };
}

describe('senderOfSessionEvent', () => {
  it('names the daemon of the subject’s last token, and takes a service’s token as a service', () => {
    const event = pinned();
    expect(senderOfSessionEvent(subjects.forEvent(event, HOLDER), event)).toEqual({ kind: 'daemon', daemonId: HOLDER });
    expect(senderOfSessionEvent(subjects.forEvent(event, 'session-resume'), event)).toEqual({ kind: 'service' });
  });

  it('refuses a subject naming another session than the event', () => {
    expect(senderOfSessionEvent(`session.pinned.session-b.${HOLDER}`, pinned())).toEqual({ kind: 'invalid', error: 'subject session.pinned.session-b.daemon-holder names session session-b, the event session-a' });
  });
});

describe('checkSessionPublisher', () => {
  it('given the publisher held the pinned attempt, on the task’s runtime, applies it, also after a later attempt began', () => {
    expect(checkSessionPublisher({ daemonId: HOLDER, event: pinned(), task: task() })).toEqual({ verdict: 'held' });
    expect(checkSessionPublisher({ daemonId: 'daemon-second', event: pinned({ attempt: 2 }), task: task() })).toEqual({ verdict: 'held' });
  });

  it('given another daemon holds the pinned attempt, calls it forged, naming both', () => {
    expect(checkSessionPublisher({ daemonId: 'daemon-other', event: pinned(), task: task() })).toEqual({
      verdict: 'forged',
      error: 'session.pinned published by daemon-other, but attempt 1 of task task-1 is held by daemon-holder',
    });
  });

  it('given the holder places the session on another runtime than the task’s, calls it forged', () => {
    expect(checkSessionPublisher({ daemonId: HOLDER, event: pinned({ runtimeId: 'runtime-9' }), task: task() })).toEqual({
      verdict: 'forged',
      error: 'session.pinned by daemon-holder places the session on runtime-9, but task task-1 runs on runtime-1',
    });
  });

  it('given nobody holds the pinned attempt yet, or the task is unknown, holds it back', () => {
    expect(checkSessionPublisher({ daemonId: HOLDER, event: pinned({ attempt: 3 }), task: task() })).toEqual({
      verdict: 'unheld',
      error: 'attempt 3 of task task-1 has no holder yet; session.pinned published by daemon-holder',
    });
    expect(checkSessionPublisher({ daemonId: HOLDER, event: pinned(), task: undefined }).verdict).toBe('unheld');
  });

  it('given a retirement, applies it from any daemon that held an attempt of its task, and no other', () => {
    expect(checkSessionPublisher({ daemonId: HOLDER, event: retired(), task: task() })).toEqual({ verdict: 'held' });
    expect(checkSessionPublisher({ daemonId: 'daemon-other', event: retired(), task: task() })).toEqual({
      verdict: 'forged',
      error: 'session.retired published by daemon-other, but no attempt of task task-1 was held by it',
    });
    expect(checkSessionPublisher({ daemonId: HOLDER, event: retired(), task: task({ attempt: 0, status: 'queued', holders: new Map() }) }).verdict).toBe('unheld');
  });

  it('given a daemon’s retirement naming no task, calls it forged', () => {
    expect(checkSessionPublisher({ daemonId: HOLDER, event: retired(null), task: undefined })).toEqual({
      verdict: 'forged',
      error: 'session.retired from daemon-holder names no task, so no attempt vouches for it',
    });
  });
});
