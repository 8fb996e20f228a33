import { createEvent } from '@switchyard/contracts';
import { decodeTimelineEvent, isTransientDatabaseError } from './timeline.projector';

const encode = (value: unknown): Uint8Array => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));

describe('decodeTimelineEvent', () => {
  const event = createEvent({ type: 'task.message', payload: { taskId: 'task-1', seq: 0, attempt: 1, message: { type: 'text', text: 'hello' } } });

  it('accepts a task.message event', () => {
    expect(decodeTimelineEvent(encode(event))).toEqual({ ok: true, event });
  });

  it('replaces invalid UTF-8 instead of refusing the event', () => {
    const bytes = Buffer.from(JSON.stringify(event));
    const at = bytes.indexOf('hello');
    bytes[at] = 0xff;
    const decoded = decodeTimelineEvent(bytes);
    expect(decoded.ok && decoded.event.payload.message).toEqual({ type: 'text', text: '\uFFFDello' });
  });

  it.each([
    ['bytes that are not JSON', encode('{ nope'), 'decode_failed'],
    ['an event failing its schema', encode({ ...event, payload: { ...event.payload, seq: -1 } }), 'permanent_error'],
    ['an unknown event type', encode({ ...event, type: 'task.whatever' }), 'permanent_error'],
    ['another event type', encode(createEvent({ type: 'task.heartbeat', payload: { taskId: 'task-1', attempt: 1, daemonId: 'd', leaseExpiresAt: event.occurredAt } })), 'permanent_error'],
  ])('dead-letters %s', (_label, bytes, reason) => {
    expect(decodeTimelineEvent(bytes)).toMatchObject({ ok: false, reason });
  });
});

describe('isTransientDatabaseError', () => {
  const withCode = (message: string, code: string): Error => Object.assign(new Error(message), { code });
  it.each([
    { label: 'a dropped connection (no SQLSTATE)', error: new Error('Connection terminated unexpectedly'), transient: true },
    { label: 'a refused connection', error: withCode('connect ECONNREFUSED', 'ECONNREFUSED'), transient: true },
    { label: 'an admin shutdown', error: withCode('terminating connection', '57P01'), transient: true },
    { label: 'too many connections', error: withCode('too many clients', '53300'), transient: true },
    { label: 'a deadlock', error: withCode('deadlock detected', '40P01'), transient: true },
    { label: 'a value out of range', error: withCode('out of range', '22003'), transient: false },
    { label: 'an invalid byte sequence', error: withCode('invalid byte sequence', '22021'), transient: false },
    { label: 'a check constraint', error: withCode('violates check constraint', '23514'), transient: false },
  ])('$label is transient: $transient', ({ error, transient }) => {
    expect(isTransientDatabaseError(error)).toBe(transient);
  });
});
