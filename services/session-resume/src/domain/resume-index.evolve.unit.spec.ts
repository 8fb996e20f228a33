import { PRIOR, RUNTIME, SESSION, T0, T1, T2, T3, T4, WORK_DIR, events } from './resume.fixtures.spec-helper';
import { fold } from './resume.given.spec-helper';
import { sessionPlace } from './resume-index.entry';
import { resumeKeyOf, resumeKeyText } from './resume-key';

describe('resume index evolve', () => {
  it('given a task run end to end, keeps its key, runtime, work dir, session and outcome', () => {
    const entry = fold([events.enqueued(), events.started(), events.pinned(), events.completed()]);
    expect(entry).toEqual({
      taskId: PRIOR,
      enqueued: { at: T0, key: 'issue:agent-1:issue-7', agentId: 'agent-1', runtimeId: RUNTIME },
      run: { attempt: 1, at: T1, runtimeId: RUNTIME, workDir: WORK_DIR },
      session: { sessionId: SESSION, attempt: 1, at: T2, pinned: { attempt: 1, runtimeId: RUNTIME, workDir: WORK_DIR } },
      outcome: { kind: 'completed', at: T3 },
    });
  });

  it('given any event delivered twice, ends in the same entry', () => {
    const history = [events.enqueued(), events.started(), events.pinned(), events.failed({ reason: 'iteration_limit' })];
    expect(fold(history.flatMap((event) => [event, event]))).toEqual(fold(history));
  });

  it('given the events in any order, ends in the same entry', () => {
    const history = [events.enqueued(), events.started(), events.pinned(), events.completed()];
    expect(fold([...history].reverse())).toEqual(fold(history));
    expect(fold([history[3]!, history[0]!, history[2]!, history[1]!])).toEqual(fold(history));
  });

  it('given a newer session pinned, a late redelivery of the older pin does not bring it back', () => {
    const entry = fold([events.pinned({ attempt: 2, sessionId: 'session-b' }, T3), events.pinned({}, T2)]);
    expect(entry.session?.sessionId).toBe('session-b');
  });

  it('given a later attempt started, keeps its work dir over the earlier attempt', () => {
    const entry = fold([events.started({ attempt: 2, workDir: '/w/2' }, T3), events.started({}, T1)]);
    expect(entry.run).toMatchObject({ attempt: 2, workDir: '/w/2' });
  });

  it('given an outcome, an older outcome arriving late does not overwrite it', () => {
    const entry = fold([events.failed({ reason: 'runtime_offline' }, T4), events.cancelled({}, T3)]);
    expect(entry.outcome).toMatchObject({ kind: 'failed', reason: 'runtime_offline', at: T4 });
  });

  it('given a session only in the failure, keeps it with the attempt work dir', () => {
    const entry = fold([events.started(), events.failed({ sessionId: 'session-f', reason: 'timeout' })]);
    expect(entry.session).toEqual({ sessionId: 'session-f', attempt: 1, at: T3, pinned: null });
    expect(sessionPlace(entry)).toEqual({ runtimeId: RUNTIME, workDir: WORK_DIR });
  });

  it('given the pinned session, the completion naming the same session keeps the pinned facts', () => {
    const entry = fold([events.pinned(), events.completed()]);
    expect(entry.session).toMatchObject({ at: T2, pinned: { workDir: WORK_DIR } });
  });

  it('given a duplicate enqueue with other data, keeps the first', () => {
    const entry = fold([events.enqueued(), events.enqueued({ runtimeId: 'runtime-x' }, T1)]);
    expect(entry.enqueued).toMatchObject({ runtimeId: RUNTIME, at: T0 });
  });

  describe('keys', () => {
    it('keys issue tasks by agent and issue, chat tasks by chat session, others not at all', () => {
      expect(resumeKeyText(resumeKeyOf({ agentId: 'a', source: { kind: 'issue', issueId: 'i', trigger: 'rerun', commentId: null } })!)).toBe('issue:a:i');
      expect(resumeKeyText(resumeKeyOf({ agentId: 'a', source: { kind: 'chat', chatSessionId: 'c', chatMessageId: 'm' } })!)).toBe('chat:c');
      expect(resumeKeyOf({ agentId: 'a', source: { kind: 'quick_create' } })).toBeNull();
      expect(resumeKeyOf({ agentId: 'a', source: { kind: 'autopilot', autopilotId: 'p', trigger: 'manual' } })).toBeNull();
      expect(fold([events.enqueued({ source: { kind: 'quick_create' } })]).enqueued?.key).toBeNull();
    });

    it('gives two agents on one issue two keys', () => {
      const source = { kind: 'issue', issueId: 'i', trigger: 'assignment', commentId: null } as const;
      expect(resumeKeyText(resumeKeyOf({ agentId: 'a', source })!)).not.toBe(resumeKeyText(resumeKeyOf({ agentId: 'b', source })!));
    });
  });
});
