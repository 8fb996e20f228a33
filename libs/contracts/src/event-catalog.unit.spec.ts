import { ContractViolation } from './contract-violation.error';
import { causedBy, createEvent } from './create-event';
import { EVENT_CATALOG, EVENT_TYPES, eventSchema, isEventType, parseEvent, parseEventOrThrow, type EventType } from './event-catalog';
import { EVENT_PAYLOAD_SAMPLES, SAMPLE_IDS, SAMPLE_OCCURRED_AT } from './event-samples.spec-helper';
import { isUuidv7 } from './uuidv7';
import { thrownBy } from './thrown-by.spec-helper';

function sampleEvent(type: EventType): Record<string, unknown> {
  return { ...createEvent({ type, payload: EVENT_PAYLOAD_SAMPLES[type], occurredAt: SAMPLE_OCCURRED_AT }) };
}

/** Fields added to a payload later, with a default so events published before them still parse. */
const DEFAULTED_FIELDS: Partial<Record<EventType, readonly string[]>> = {
  'runtime.registered': ['models'],
  'task.completed': ['repositories'],
  'task.failed': ['repositories'],
  'task.cancelled': ['repositories'],
};

function expectViolation(input: unknown, code: ContractViolation['code']): ContractViolation {
  const result = parseEvent(input);
  if (result.ok) throw new Error(`expected ${code}, but it parsed`);
  expect(result.error).toBeInstanceOf(ContractViolation);
  expect(result.error.code).toBe(code);
  return result.error;
}

describe('event catalog', () => {
  it('lists every event type of the design, each with a version and a matching type constant', () => {
    expect([...EVENT_TYPES].sort()).toEqual(
      [
        'runtime.heartbeat',
        'runtime.offline',
        'runtime.registered',
        'session.pinned',
        'session.retired',
        'task.cancel_requested',
        'task.cancelled',
        'task.claimed',
        'task.completed',
        'task.deferred',
        'task.enqueued',
        'task.expired',
        'task.failed',
        'task.heartbeat',
        'task.local_directory_awaited',
        'task.message',
        'task.requeued',
        'task.start_deadline_extended',
        'task.started',
        'task.timed_out',
      ].sort(),
    );
    for (const type of EVENT_TYPES) {
      expect(EVENT_CATALOG[type].type).toBe(type);
      expect(Number.isInteger(EVENT_CATALOG[type].schemaVersion)).toBe(true);
      expect(type.startsWith(`${EVENT_CATALOG[type].aggregate}.`)).toBe(true);
    }
    expect(eventSchema.options).toHaveLength(EVENT_TYPES.length);
  });

  it('knows its own types only', () => {
    expect(isEventType('task.claimed')).toBe(true);
    expect(isEventType('task.exploded')).toBe(false);
    expect(isEventType('toString')).toBe(false);
    expect(isEventType(42)).toBe(false);
  });

  describe.each(EVENT_TYPES)('%s', (type) => {
    it('parses a valid sample, also after a JSON round trip', () => {
      const event = sampleEvent(type);
      const result = parseEvent(JSON.parse(JSON.stringify(event)));
      expect(result).toEqual({ ok: true, event });
      if (result.ok) expect(result.event.type).toBe(type);
    });

    it('rejects a payload missing any one required field with invalid_payload', () => {
      const event = sampleEvent(type);
      for (const field of Object.keys(EVENT_PAYLOAD_SAMPLES[type]).filter((name) => !DEFAULTED_FIELDS[type]?.includes(name))) {
        const payload: Record<string, unknown> = { ...EVENT_PAYLOAD_SAMPLES[type] };
        delete payload[field];
        const error = expectViolation({ ...event, payload }, 'invalid_payload');
        expect(error.claimedType).toBe(type);
        expect(error.issues.length).toBeGreaterThan(0);
        expect(error.issues[0]?.path[0]).toBe('payload');
      }
    });

    it('rejects a payload of the wrong shape and an unsupported schema version', () => {
      const event = sampleEvent(type);
      expectViolation({ ...event, payload: 'not an object' }, 'invalid_payload');
      expectViolation({ ...event, schemaVersion: EVENT_CATALOG[type].schemaVersion + 1 }, 'unsupported_schema_version');
    });

    it('rejects an aggregateId that differs from the payload id', () => {
      const error = expectViolation({ ...sampleEvent(type), aggregateId: 'someone-else' }, 'invalid_envelope');
      expect(error.issues[0]?.path).toEqual(['aggregateId']);
    });
  });

  describe('parseEvent', () => {
    it('returns invalid_envelope for anything that is not an envelope', () => {
      expectViolation(null, 'invalid_envelope');
      expectViolation('task.claimed', 'invalid_envelope');
      const event = sampleEvent('task.claimed');
      expectViolation({ ...event, eventId: 'not-a-uuid' }, 'invalid_envelope');
      // A UUIDv4 is a valid UUID but not a time-ordered event id.
      expectViolation({ ...event, eventId: '0b7e9a64-0c3e-4b8e-9f5a-3e7f1c2d4b5a' }, 'invalid_envelope');
      expectViolation({ ...event, occurredAt: 'yesterday' }, 'invalid_envelope');
      expectViolation({ ...event, causationId: undefined }, 'invalid_envelope');
      expectViolation({ ...event, type: 'TaskClaimed' }, 'invalid_envelope');
      const error = expectViolation({ ...event, aggregateId: 'task.1' }, 'invalid_envelope');
      expect(error.claimedType).toBe('task.claimed');
    });

    it('returns unknown_event_type for a well-formed envelope of a type it does not know', () => {
      const error = expectViolation({ ...sampleEvent('task.claimed'), type: 'task.exploded' }, 'unknown_event_type');
      expect(error.claimedType).toBe('task.exploded');
      expect(error.isRetryable).toBe(false);
    });

    it('drops unknown payload fields but rejects new top-level fields in unified messages', () => {
      const claimed = sampleEvent('task.claimed');
      const result = parseEvent({ ...claimed, payload: { ...EVENT_PAYLOAD_SAMPLES['task.claimed'], addedLater: true } });
      expect(result).toEqual({ ok: true, event: claimed });

      const message = sampleEvent('task.message');
      const payload = { ...EVENT_PAYLOAD_SAMPLES['task.message'], message: { type: 'text', text: 'hi', stopReason: 'end' } };
      expectViolation({ ...message, payload }, 'invalid_payload');
    });

    it('reads a runtime.registered published before model discovery as listing no model', () => {
      const { models, ...earlier } = EVENT_PAYLOAD_SAMPLES['runtime.registered'];
      expect(models.length).toBeGreaterThan(0);
      const registered = sampleEvent('runtime.registered');
      const result = parseEvent({ ...registered, payload: earlier });
      expect(result).toEqual({ ok: true, event: { ...registered, payload: { ...earlier, models: [] } } });
    });

    it('rejects a runtime.registered with an empty model id or too many models', () => {
      const registered = sampleEvent('runtime.registered');
      const sample = EVENT_PAYLOAD_SAMPLES['runtime.registered'];
      expectViolation({ ...registered, payload: { ...sample, models: ['a/one', ''] } }, 'invalid_payload');
      expectViolation({ ...registered, payload: { ...sample, models: ['x'.repeat(201)] } }, 'invalid_payload');
      expectViolation({ ...registered, payload: { ...sample, models: Array.from({ length: 501 }, (_, index) => `p/m-${index}`) } }, 'invalid_payload');
    });

    it('parseEventOrThrow throws the ContractViolation', () => {
      expect(() => parseEventOrThrow({})).toThrow(ContractViolation);
      expect(parseEventOrThrow(sampleEvent('task.started')).type).toBe('task.started');
    });
  });

  describe('createEvent', () => {
    it('fills the envelope: UUIDv7 id, version, aggregate id from the payload, self correlation', () => {
      const event = createEvent({ type: 'task.claimed', payload: EVENT_PAYLOAD_SAMPLES['task.claimed'] });
      expect(isUuidv7(event.eventId)).toBe(true);
      expect(event.schemaVersion).toBe(1);
      expect(event.aggregateId).toBe(SAMPLE_IDS.taskId);
      expect(event.correlationId).toBe(event.eventId);
      expect(event.causationId).toBeNull();
      expect(Number.isNaN(Date.parse(event.occurredAt))).toBe(false);
    });

    it('chains correlation and causation from a causing event or command', () => {
      const claimed = createEvent({ type: 'task.claimed', payload: EVENT_PAYLOAD_SAMPLES['task.claimed'], correlationId: 'request-9' });
      const started = createEvent({ type: 'task.started', payload: EVENT_PAYLOAD_SAMPLES['task.started'], ...causedBy(claimed) });
      expect(started.correlationId).toBe('request-9');
      expect(started.causationId).toBe(claimed.eventId);
      expect(causedBy({ requestId: 'request-10' })).toEqual({ correlationId: 'request-10', causationId: 'request-10' });
    });

    it('is deterministic when id and time are given', () => {
      const input = {
        type: 'runtime.offline' as const,
        payload: EVENT_PAYLOAD_SAMPLES['runtime.offline'],
        eventId: '0197a5c3-6f1e-7c2a-9b4d-2f1e3d4c5b6a',
        occurredAt: new Date(SAMPLE_OCCURRED_AT),
      };
      expect(createEvent(input)).toEqual(createEvent(input));
      expect(createEvent(input).occurredAt).toBe(SAMPLE_OCCURRED_AT);
    });

    it('throws a typed ContractViolation for an invalid payload or a mismatched aggregate id', () => {
      const payload = { ...EVENT_PAYLOAD_SAMPLES['task.claimed'], attempt: 0 };
      expect(thrownBy(() => createEvent({ type: 'task.claimed', payload }))).toMatchObject({
        name: 'ContractViolation',
        code: 'invalid_payload',
      });
      const claimed = EVENT_PAYLOAD_SAMPLES['task.claimed'];
      expect(thrownBy(() => createEvent({ type: 'task.claimed', payload: claimed, aggregateId: 'other' }))).toMatchObject({
        code: 'invalid_envelope',
      });
    });
  });
});
