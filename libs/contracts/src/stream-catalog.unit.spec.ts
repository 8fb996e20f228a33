import { COMMAND_NAMES, isDaemonCommand, type CommandName } from './command-catalog';
import { EVENT_TYPES } from './event-catalog';
import { CONSUMER_DEFAULTS, STREAM_CATALOG } from './stream-catalog';
import { SERVICE_PUBLISHERS, subjects } from './subjects';

/** Minimal NATS subject matching, enough for the filters used here. */
function matches(filter: string, subject: string): boolean {
  const filterTokens = filter.split('.');
  const subjectSegments = subject.split('.');
  for (const [index, token] of filterTokens.entries()) {
    if (token === '>') return subjectSegments.length > index;
    if (token !== '*' && token !== subjectSegments[index]) return false;
  }
  return filterTokens.length === subjectSegments.length;
}

const streams = Object.values(STREAM_CATALOG);

function streamsCapturing(subject: string): string[] {
  return streams.filter((stream) => stream.subjects.some((filter) => matches(filter, subject))).map((stream) => stream.name);
}

describe('stream catalog', () => {
  it('names each stream after its key', () => {
    for (const [key, stream] of Object.entries(STREAM_CATALOG)) expect(stream.name).toBe(key);
  });

  it('stores every event type in exactly one stream', () => {
    for (const type of EVENT_TYPES) {
      expect(streamsCapturing(subjects.forEvent({ type, aggregateId: 'some-id' }, 'd1'))).toHaveLength(1);
      expect(streamsCapturing(subjects.forEvent({ type, aggregateId: 'some-id' }, SERVICE_PUBLISHERS.queue))).toHaveLength(1);
    }
    expect(streamsCapturing(subjects.taskEvent({ type: 'task.message', taskId: 't1', publisher: 'd1' }))).toEqual(['TASK_EVENTS']);
    expect(streamsCapturing(subjects.runtimeHeartbeat('r1', 'd1'))).toEqual(['RUNTIME_EVENTS']);
    expect(streamsCapturing(subjects.sessionEvent({ type: 'session.pinned', sessionId: 's1', publisher: 'd1' }))).toEqual(['SESSION_EVENTS']);
    expect(streamsCapturing(subjects.deadLetter('TASK_EVENTS', 'projector'))).toEqual(['DEAD_LETTERS']);
  });

  it('never captures command subjects, which are request/reply', () => {
    const commandSubject = (name: CommandName): string => (isDaemonCommand(name) ? subjects.command(name, 'd1') : subjects.command(name));
    for (const name of COMMAND_NAMES) expect(streamsCapturing(commandSubject(name))).toEqual([]);
  });

  it('lets the filters of one aggregate and one event type see every publisher', () => {
    const fromDaemon = subjects.taskEvent({ type: 'task.message', taskId: 't1', publisher: 'd1' });
    const fromQueue = subjects.taskEvent({ type: 'task.cancel_requested', taskId: 't1', publisher: SERVICE_PUBLISHERS.queue });
    expect(matches(subjects.aggregateFilter('task', 't1'), fromDaemon)).toBe(true);
    expect(matches(subjects.aggregateFilter('task', 't1'), fromQueue)).toBe(true);
    expect(matches(subjects.aggregateFilter('task', 't2'), fromQueue)).toBe(false);
    expect(matches(subjects.aggregateEventFilter('task.message', 't1'), fromDaemon)).toBe(true);
    expect(matches(subjects.aggregateEventFilter('task.message', 't1'), fromQueue)).toBe(false);
    expect(matches(subjects.eventTypeFilter('task.cancel_requested'), fromQueue)).toBe(true);
    expect(matches(subjects.aggregateKindFilter('task'), fromDaemon)).toBe(true);
    expect(matches(subjects.commandFilter('task.claim'), subjects.command('task.claim', 'd1'))).toBe(true);
    expect(matches(subjects.commandFilter('task.enqueue'), subjects.command('task.enqueue'))).toBe(true);
  });

  it('recommends finite redelivery with a backoff that fits max deliver', () => {
    expect(CONSUMER_DEFAULTS.maxDeliver).toBeGreaterThan(1);
    expect(CONSUMER_DEFAULTS.backoffMs.length).toBeLessThan(CONSUMER_DEFAULTS.maxDeliver);
    for (const delay of CONSUMER_DEFAULTS.backoffMs) expect(delay).toBeGreaterThanOrEqual(CONSUMER_DEFAULTS.ackWaitMs);
    for (const stream of streams) expect(stream.duplicateWindowMs).toBeLessThanOrEqual(stream.maxAgeMs);
  });
});
