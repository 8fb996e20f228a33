import { AckPolicy, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { InvalidDefinitionError } from '../errors/messaging.errors';
import { createNamespace } from '../namespace/messaging.namespace';
import { catalogStreamDefinitions, deadLetterStreamDefinition, validateConsumerDefinition, validateStreamDefinition } from './stream.definitions';
import { differingFields, streamMaxBytesCap, toConsumerConfig, toStreamConfig } from './stream.provisioner';

const namespace = createNamespace('ns1');
const millisecond = 1_000_000;

describe('toStreamConfig', () => {
  it('applies the namespace and converts durations to nanoseconds', () => {
    expect(
      toStreamConfig({ name: 'TASKS', subjects: ['task.>'], retention: 'workqueue', maxAgeMs: 1_000, duplicateWindowMs: 500 }, namespace),
    ).toEqual({
      name: 'ns1_TASKS',
      subjects: ['ns1.task.>'],
      retention: RetentionPolicy.Workqueue,
      storage: StorageType.File,
      discard: 'old',
      max_age: 1_000 * millisecond,
      duplicate_window: 500 * millisecond,
    });
  });

  it('namespaces the dead-letter stream', () => {
    expect(toStreamConfig(deadLetterStreamDefinition(), namespace)).toMatchObject({ name: 'ns1_DEAD_LETTERS', subjects: ['ns1.dlq.>'] });
  });

  it('caps max_bytes when a small server asks for it, and refuses a malformed cap', () => {
    const definition = { name: 'TASKS', subjects: ['task.>'], maxBytes: 10 * 1024 ** 3 };
    expect(toStreamConfig(definition, namespace, { maxReplicas: 1, maxBytesCap: 1024 }).max_bytes).toBe(1024);
    expect(toStreamConfig(definition, namespace).max_bytes).toBe(10 * 1024 ** 3);
    expect(streamMaxBytesCap({ SWITCHYARD_STREAM_MAX_BYTES_CAP: '65536' })).toBe(65536);
    expect(streamMaxBytesCap({})).toBeUndefined();
    expect(() => streamMaxBytesCap({ SWITCHYARD_STREAM_MAX_BYTES_CAP: 'lots' })).toThrow(InvalidDefinitionError);
  });

  it('keeps the timeline and sessions whole: a full stream refuses new messages, and none may be deleted or purged', () => {
    const configs = Object.fromEntries(catalogStreamDefinitions().map((definition) => [definition.name, toStreamConfig(definition, namespace)]));
    for (const name of ['TASK_EVENTS', 'SESSION_EVENTS']) expect(configs[name]).toMatchObject({ discard: 'new', deny_delete: true, deny_purge: true });
    // Heartbeats and dead letters shed their oldest instead of stalling their producers.
    for (const name of ['RUNTIME_EVENTS', 'DEAD_LETTERS']) expect(configs[name]).toMatchObject({ discard: 'old', deny_delete: true, deny_purge: true });
  });

  it('clamps the replicas a definition asks for to what the server can hold', () => {
    const definition = { name: 'TASKS', subjects: ['task.>'], replicas: 3 };
    expect(toStreamConfig(definition, namespace, { maxReplicas: 1 }).num_replicas).toBe(1);
    expect(toStreamConfig(definition, namespace).num_replicas).toBe(3);
  });

  it('takes every stream of the contracts catalog, with subjects that do not overlap', () => {
    const definitions = catalogStreamDefinitions();
    expect(definitions.map((definition) => definition.name).sort()).toEqual(['DEAD_LETTERS', 'RUNTIME_EVENTS', 'SESSION_EVENTS', 'TASK_EVENTS']);
    const allSubjects = definitions.flatMap((definition) => definition.subjects);
    expect(new Set(allSubjects.map((subject) => subject.split('.')[0])).size).toBe(allSubjects.length);
    for (const definition of definitions) expect(() => validateStreamDefinition(definition)).not.toThrow();
  });
});

describe('toConsumerConfig', () => {
  it('declares an explicit-ack durable with finite redelivery', () => {
    expect(
      toConsumerConfig({ stream: 'TASKS', name: 'worker', ackWaitMs: 30_000, maxDeliver: 5, filterSubjects: ['task.enqueued.*'] }, namespace),
    ).toEqual({
      durable_name: 'ns1_worker',
      ack_policy: AckPolicy.Explicit,
      deliver_policy: 'all',
      ack_wait: 30_000 * millisecond,
      max_deliver: 5,
      filter_subject: 'ns1.task.enqueued.*',
    });
  });

  it('uses the first backoff entry as ack wait, as the server does', () => {
    const config = toConsumerConfig({ stream: 'TASKS', name: 'worker', ackWaitMs: 30_000, maxDeliver: 4, backoffMs: [100, 400] }, namespace);

    expect(config.ack_wait).toBe(100 * millisecond);
    expect(config.backoff).toEqual([100 * millisecond, 400 * millisecond]);
  });

  it('uses filter_subjects only for several filters', () => {
    const config = toConsumerConfig(
      { stream: 'TASKS', name: 'worker', ackWaitMs: 1_000, maxDeliver: 2, filterSubjects: ['a.*', 'b.*'] },
      namespace,
    );

    expect(config.filter_subject).toBeUndefined();
    expect(config.filter_subjects).toEqual(['ns1.a.*', 'ns1.b.*']);
  });
});

describe('differingFields', () => {
  it('compares arrays as sets and ignores fields not declared', () => {
    expect(differingFields({ subjects: ['a', 'b'], max_deliver: 3 }, { subjects: ['b', 'a'], max_deliver: 3, extra: 1 })).toEqual([]);
  });

  it('names the fields that differ', () => {
    expect(differingFields({ subjects: ['a'], max_deliver: 3, backoff: [1] }, { subjects: ['a', 'b'], max_deliver: 4 })).toEqual([
      'subjects',
      'max_deliver',
      'backoff',
    ]);
  });
});

describe('definition validation', () => {
  const consumer = { stream: 'TASKS', name: 'worker', ackWaitMs: 1_000, maxDeliver: 3 };

  it('accepts a finite consumer with a shorter backoff list', () => {
    expect(() => validateConsumerDefinition({ ...consumer, backoffMs: [100, 200] })).not.toThrow();
  });

  it.each([
    ['unbounded redelivery', { maxDeliver: -1 }],
    ['maxDeliver not above the backoff length', { maxDeliver: 2, backoffMs: [100, 200] }],
    ['a zero backoff entry', { backoffMs: [0] }],
    ['a fractional ack wait', { ackWaitMs: 1.5 }],
  ])('rejects %s', (_label, change) => {
    expect(() => validateConsumerDefinition({ ...consumer, ...change })).toThrow(InvalidDefinitionError);
  });

  it('rejects a stream without subjects or with a negative limit', () => {
    expect(() => validateStreamDefinition({ name: 'S', subjects: [] })).toThrow(InvalidDefinitionError);
    expect(() => validateStreamDefinition({ name: 'S', subjects: ['s'], maxAgeMs: -1 })).toThrow(InvalidDefinitionError);
  });
});
