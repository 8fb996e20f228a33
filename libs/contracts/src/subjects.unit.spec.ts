import { EVENT_PAYLOAD_SAMPLES, SAMPLE_IDS } from './event-samples.spec-helper';
import { createEvent } from './create-event';
import { SubjectSegmentError, assertSubjectSegment, identifierSchema, isValidSubjectSegment } from './subject-segment';
import { SERVICE_PUBLISHERS, isReservedDaemonId, messageIds, subjects } from './subjects';
import { thrownBy } from './thrown-by.spec-helper';

describe('subject segments', () => {
  it.each([
    ['', 'empty'],
    ['task.1', 'contains_separator'],
    ['task*', 'contains_wildcard'],
    ['task>', 'contains_wildcard'],
    ['task 1', 'contains_whitespace'],
    ['task\t1', 'contains_whitespace'],
    ['task\n1', 'contains_whitespace'],
    ['x'.repeat(257), 'too_long'],
  ])('rejects %j as %s with a typed error', (segment, code) => {
    expect(isValidSubjectSegment(segment)).toBe(false);
    expect(() => assertSubjectSegment(segment, 'taskId')).toThrow(SubjectSegmentError);
    expect(thrownBy(() => assertSubjectSegment(segment, 'taskId'))).toMatchObject({ code, segment, label: 'taskId' });
    expect(identifierSchema.safeParse(segment).success).toBe(false);
  });

  it('accepts ordinary ids', () => {
    for (const segment of [SAMPLE_IDS.taskId, 'runtime-claude_laptop-7', 'a:b', 'Ünïcode']) {
      expect(assertSubjectSegment(segment)).toBe(segment);
      expect(identifierSchema.parse(segment)).toBe(segment);
    }
  });
});

describe('subjects', () => {
  it('name the aggregate, then the publisher, after the type', () => {
    expect(subjects.taskEvent({ type: 'task.message', taskId: 't1', publisher: 'd1' })).toBe('task.message.t1.d1');
    expect(subjects.taskEvent({ type: 'task.cancel_requested', taskId: 't1', publisher: 'queue' })).toBe('task.cancel_requested.t1.queue');
    expect(subjects.runtimeEvent({ type: 'runtime.registered', runtimeId: 'r1', publisher: 'd1' })).toBe('runtime.registered.r1.d1');
    expect(subjects.runtimeHeartbeat('r1', 'd1')).toBe('runtime.heartbeat.r1.d1');
    expect(subjects.sessionEvent({ type: 'session.pinned', sessionId: 's1', publisher: 'd1' })).toBe('session.pinned.s1.d1');
  });

  it('build the subject of an envelope from its type, aggregate id and publisher', () => {
    const event = createEvent({ type: 'runtime.heartbeat', payload: EVENT_PAYLOAD_SAMPLES['runtime.heartbeat'] });
    expect(subjects.forEvent(event, 'd1')).toBe(`runtime.heartbeat.${SAMPLE_IDS.runtimeId}.d1`);
    expect(subjects.forEvent(event, SERVICE_PUBLISHERS.queue)).toBe(`runtime.heartbeat.${SAMPLE_IDS.runtimeId}.queue`);
  });

  it('read the publisher from the last token', () => {
    expect(subjects.publisherOf(subjects.taskEvent({ type: 'task.cancel_requested', taskId: 't1', publisher: 'queue' }))).toBe('queue');
    expect(subjects.publisherOf(subjects.runtimeHeartbeat('r1', 'd1'))).toBe('d1');
    expect(subjects.publisherOf(subjects.command('task.claim', 'd1'))).toBe('d1');
    expect(() => subjects.publisherOf('task.message.t1.')).toThrow(SubjectSegmentError);
  });

  it('read the aggregate id from the token before the publisher, two-word types included', () => {
    expect(subjects.aggregateIdOf(subjects.taskEvent({ type: 'task.cancel_requested', taskId: 't1', publisher: 'queue' }))).toBe('t1');
    expect(subjects.aggregateIdOf(subjects.taskEvent({ type: 'task.message', taskId: 't2', publisher: 'd1' }))).toBe('t2');
    expect(() => subjects.aggregateIdOf('d1')).toThrow(SubjectSegmentError);
  });

  it('offer wildcard filters that match whole tokens, publisher included', () => {
    expect(subjects.eventTypeFilter('task.message')).toBe('task.message.>');
    expect(subjects.aggregateKindFilter('task')).toBe('task.*.>');
    expect(subjects.aggregateFilter('task', 't1')).toBe('task.*.t1.*');
    expect(subjects.aggregateEventFilter('task.message', 't1')).toBe('task.message.t1.*');
    expect(subjects.allCommands()).toBe('cmd.>');
    expect(subjects.deadLetterFilter()).toBe('dlq.>');
    expect(subjects.deadLetterFilter('TASK_EVENTS')).toBe('dlq.TASK_EVENTS.>');
  });

  it('address daemon-sent commands by sender and service-sent ones by name only', () => {
    expect(subjects.command('task.claim', 'd1')).toBe('cmd.task.claim.d1');
    expect(subjects.command('task.release_orphans', 'd1')).toBe('cmd.task.release_orphans.d1');
    expect(subjects.command('session.resolve', 'd1')).toBe('cmd.session.resolve.d1');
    expect(subjects.command('task.enqueue')).toBe('cmd.task.enqueue');
    expect(subjects.commandFilter('task.claim')).toBe('cmd.task.claim.*');
    expect(subjects.commandFilter('task.cancel_matching')).toBe('cmd.task.cancel_matching');
  });

  it('refuse a command subject with the wrong sender shape', () => {
    const untyped = subjects.command as (name: string, sender?: string) => string;
    expect(() => untyped('task.claim')).toThrow(/needs the sender/);
    expect(() => untyped('task.enqueue', 'd1')).toThrow(/names no sender/);
    expect(() => subjects.command('task.claim', 'a.b')).toThrow(SubjectSegmentError);
  });

  it('address notices to a daemon, which it reads back from one subscription', () => {
    expect(subjects.workAvailable('d1', 'r1')).toBe('notify.d1.work_available.r1');
    expect(subjects.cancelNotice('d1', 't1')).toBe('notify.d1.cancel.t1');
    expect(subjects.daemonNotices('d1')).toBe('notify.d1.>');
    expect(subjects.parseDaemonNotice('notify.d1.work_available.r1')).toEqual({ kind: 'work_available', daemonId: 'd1', runtimeId: 'r1' });
    expect(subjects.parseDaemonNotice('notify.d1.cancel.t1')).toEqual({ kind: 'cancel', daemonId: 'd1', taskId: 't1' });
    for (const other of ['notify.d1.exploded.t1', 'notify.d1.cancel', 'notify.d1.cancel.t1.x', 'task.d1.cancel.t1']) {
      expect(subjects.parseDaemonNotice(other)).toBeUndefined();
    }
  });

  it('keep service names and the workspace notices out of daemon ids', () => {
    for (const name of [...Object.values(SERVICE_PUBLISHERS), 'workspace']) expect(isReservedDaemonId(name)).toBe(true);
    expect(isReservedDaemonId('laptop-1')).toBe(false);
  });

  it('refuse ids that would widen or split a subject', () => {
    expect(() => subjects.taskEvent({ type: 'task.message', taskId: '>', publisher: 'd1' })).toThrow(SubjectSegmentError);
    expect(thrownBy(() => subjects.taskEvent({ type: 'task.message', taskId: 'a.b', publisher: 'd1' }))).toMatchObject({ code: 'contains_separator' });
    expect(thrownBy(() => subjects.taskEvent({ type: 'task.message', taskId: 't1', publisher: '*' }))).toMatchObject({ code: 'contains_wildcard', label: 'publisher' });
    expect(thrownBy(() => subjects.forEvent({ type: 'task.started', aggregateId: 't1' }, ''))).toMatchObject({ code: 'empty', label: 'publisher' });
    expect(() => subjects.aggregateFilter('task', '*')).toThrow(SubjectSegmentError);
    expect(() => subjects.workAvailable('>', 'r1')).toThrow(SubjectSegmentError);
    expect(() => subjects.daemonNotices('a.b')).toThrow(SubjectSegmentError);
    expect(thrownBy(() => subjects.deadLetter('TASK EVENTS', 'projector'))).toMatchObject({ label: 'stream' });
    expect(thrownBy(() => subjects.deadLetter('TASK_EVENTS', ''))).toMatchObject({ code: 'empty', label: 'consumer' });
  });
});

describe('message ids', () => {
  it('are deterministic per logical event', () => {
    expect(messageIds.taskMessage({ publisher: 'd1', taskId: 't1', seq: 0 })).toBe('d1:t1:0');
    expect(messageIds.taskMessage({ publisher: 'd1', taskId: 't1', seq: 42, proof: 'AbC-_9' })).toBe('d1:t1:42:AbC-_9');
    expect(() => messageIds.taskMessage({ publisher: 'd1', taskId: 't1', seq: 1, proof: 'a.b' })).toThrow(SubjectSegmentError);
    expect(messageIds.taskMessage({ publisher: 'd1', taskId: 't1', seq: 42 })).toBe('d1:t1:42');
    expect(messageIds.event('0197a5c3-6f1e-7c2a-9b4d-2f1e3d4c5b6a')).toBe('0197a5c3-6f1e-7c2a-9b4d-2f1e3d4c5b6a');
  });

  it('reject a bad seq, task id or publisher', () => {
    expect(() => messageIds.taskMessage({ publisher: 'd1', taskId: 't1', seq: -1 })).toThrow(RangeError);
    expect(() => messageIds.taskMessage({ publisher: 'd1', taskId: 't1', seq: 1.5 })).toThrow(RangeError);
    expect(() => messageIds.taskMessage({ publisher: 'd1', taskId: 't 1', seq: 1 })).toThrow(SubjectSegmentError);
    expect(thrownBy(() => messageIds.taskMessage({ publisher: '', taskId: 't1', seq: 1 }))).toMatchObject({ label: 'publisher' });
  });

  it('use <publisher>:<taskId>:<seq> for timeline messages, so a re-created envelope still dedupes and another publisher cannot take the id', () => {
    const payload = { ...EVENT_PAYLOAD_SAMPLES['task.message'], seq: 7 };
    const first = createEvent({ type: 'task.message', payload });
    const recreated = createEvent({ type: 'task.message', payload });
    expect(first.eventId).not.toBe(recreated.eventId);
    expect(messageIds.forEvent(first, 'd1')).toBe(`d1:${SAMPLE_IDS.taskId}:7`);
    expect(messageIds.forEvent(recreated, 'd1')).toBe(messageIds.forEvent(first, 'd1'));
    expect(messageIds.forEvent(first, 'd2')).not.toBe(messageIds.forEvent(first, 'd1'));

    const claimed = createEvent({ type: 'task.claimed', payload: EVENT_PAYLOAD_SAMPLES['task.claimed'] });
    expect(messageIds.forEvent(claimed, SERVICE_PUBLISHERS.queue)).toBe(claimed.eventId);
  });
});
