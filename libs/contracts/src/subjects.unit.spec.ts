import { EVENT_PAYLOAD_SAMPLES, SAMPLE_IDS } from './event-samples.spec-helper';
import { createEvent } from './create-event';
import { SubjectSegmentError, assertSubjectSegment, identifierSchema, isValidSubjectSegment } from './subject-segment';
import { messageIds, subjects } from './subjects';
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
  it('put the id in the trailing token', () => {
    expect(subjects.taskEvent('task.message', 't1')).toBe('task.message.t1');
    expect(subjects.taskEvent('task.cancel_requested', 't1')).toBe('task.cancel_requested.t1');
    expect(subjects.runtimeEvent('runtime.registered', 'r1')).toBe('runtime.registered.r1');
    expect(subjects.runtimeHeartbeat('r1')).toBe('runtime.heartbeat.r1');
    expect(subjects.sessionEvent('session.pinned', 's1')).toBe('session.pinned.s1');
  });

  it('build the subject of an envelope from its type and aggregate id', () => {
    const event = createEvent({ type: 'runtime.heartbeat', payload: EVENT_PAYLOAD_SAMPLES['runtime.heartbeat'] });
    expect(subjects.forEvent(event)).toBe(`runtime.heartbeat.${SAMPLE_IDS.runtimeId}`);
  });

  it('offer wildcard filters', () => {
    expect(subjects.eventTypeFilter('task.message')).toBe('task.message.>');
    expect(subjects.aggregateKindFilter('task')).toBe('task.*.>');
    expect(subjects.aggregateFilter('task', 't1')).toBe('task.*.t1');
    expect(subjects.allCommands()).toBe('cmd.>');
    expect(subjects.deadLetterFilter()).toBe('dlq.>');
    expect(subjects.deadLetterFilter('TASK_EVENTS')).toBe('dlq.TASK_EVENTS.>');
  });

  it('build command and dead-letter subjects', () => {
    expect(subjects.command('task.claim')).toBe('cmd.task.claim');
    expect(subjects.deadLetter('TASK_EVENTS', 'transcript-projector')).toBe('dlq.TASK_EVENTS.transcript-projector');
  });

  it('refuse ids that would widen or split a subject', () => {
    expect(() => subjects.taskEvent('task.message', '>')).toThrow(SubjectSegmentError);
    expect(thrownBy(() => subjects.taskEvent('task.message', 'a.b'))).toMatchObject({ code: 'contains_separator' });
    expect(() => subjects.aggregateFilter('task', '*')).toThrow(SubjectSegmentError);
    expect(thrownBy(() => subjects.deadLetter('TASK EVENTS', 'projector'))).toMatchObject({ label: 'stream' });
    expect(thrownBy(() => subjects.deadLetter('TASK_EVENTS', ''))).toMatchObject({ code: 'empty', label: 'consumer' });
  });
});

describe('message ids', () => {
  it('are deterministic per logical event', () => {
    expect(messageIds.taskMessage('t1', 0)).toBe('t1:0');
    expect(messageIds.taskMessage('t1', 42)).toBe('t1:42');
    expect(messageIds.event('0197a5c3-6f1e-7c2a-9b4d-2f1e3d4c5b6a')).toBe('0197a5c3-6f1e-7c2a-9b4d-2f1e3d4c5b6a');
  });

  it('reject a bad seq or task id', () => {
    expect(() => messageIds.taskMessage('t1', -1)).toThrow(RangeError);
    expect(() => messageIds.taskMessage('t1', 1.5)).toThrow(RangeError);
    expect(() => messageIds.taskMessage('t 1', 1)).toThrow(SubjectSegmentError);
  });

  it('use <taskId>:<seq> for timeline messages so a re-created envelope still dedupes', () => {
    const payload = { ...EVENT_PAYLOAD_SAMPLES['task.message'], seq: 7 };
    const first = createEvent({ type: 'task.message', payload });
    const recreated = createEvent({ type: 'task.message', payload });
    expect(first.eventId).not.toBe(recreated.eventId);
    expect(messageIds.forEvent(first)).toBe(`${SAMPLE_IDS.taskId}:7`);
    expect(messageIds.forEvent(recreated)).toBe(messageIds.forEvent(first));

    const claimed = createEvent({ type: 'task.claimed', payload: EVENT_PAYLOAD_SAMPLES['task.claimed'] });
    expect(messageIds.forEvent(claimed)).toBe(claimed.eventId);
  });
});
