import { COMMAND_NAMES } from './command-catalog';
import { EVENT_TYPES } from './event-catalog';
import { CONSUMER_DEFAULTS, STREAM_CATALOG } from './stream-catalog';
import { subjects } from './subjects';

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
      expect(streamsCapturing(`${type}.some-id`)).toHaveLength(1);
    }
    expect(streamsCapturing(subjects.taskEvent('task.message', 't1'))).toEqual(['TASK_EVENTS']);
    expect(streamsCapturing(subjects.runtimeHeartbeat('r1'))).toEqual(['RUNTIME_EVENTS']);
    expect(streamsCapturing(subjects.sessionEvent('session.pinned', 's1'))).toEqual(['SESSION_EVENTS']);
    expect(streamsCapturing(subjects.deadLetter('TASK_EVENTS', 'projector'))).toEqual(['DEAD_LETTERS']);
  });

  it('never captures command subjects, which are request/reply', () => {
    for (const name of COMMAND_NAMES) expect(streamsCapturing(subjects.command(name))).toEqual([]);
  });

  it('recommends finite redelivery with a backoff that fits max deliver', () => {
    expect(CONSUMER_DEFAULTS.maxDeliver).toBeGreaterThan(1);
    expect(CONSUMER_DEFAULTS.backoffMs.length).toBeLessThan(CONSUMER_DEFAULTS.maxDeliver);
    for (const delay of CONSUMER_DEFAULTS.backoffMs) expect(delay).toBeGreaterThanOrEqual(CONSUMER_DEFAULTS.ackWaitMs);
    for (const stream of streams) expect(stream.duplicateWindowMs).toBeLessThanOrEqual(stream.maxAgeMs);
  });
});
