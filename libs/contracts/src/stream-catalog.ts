import { DEAD_LETTER_SUBJECT_PREFIX } from './subjects';

// Plain data: libs/messaging turns these into JetStream configs. Postgres is the system of record,
// so streams are a bounded replay log, not an archive.

export interface StreamDefinition {
  name: string;
  subjects: readonly string[];
  description: string;
  retention: 'limits' | 'interest' | 'workqueue';
  storage: 'file' | 'memory';
  /**
   * `new` refuses a publish once the stream is full instead of dropping its oldest messages, which
   * a projector may not have read yet: producers keep theirs and retry (backpressure).
   */
  discard: 'old' | 'new';
  /** Nobody, a service or an operator's tool, may remove single messages or purge the stream. */
  denyDelete: boolean;
  denyPurge: boolean;
  maxAgeMs: number;
  maxBytes: number;
  maxMessageSize: number;
  /** JetStream's `Nats-Msg-Id` dedupe window. */
  duplicateWindowMs: number;
  /** Recommended for a cluster; single-node setups clamp to 1. */
  replicas: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MEBIBYTE = 1024 * 1024;
const GIBIBYTE = 1024 * MEBIBYTE;

export const STREAM_CATALOG = {
  TASK_EVENTS: {
    name: 'TASK_EVENTS',
    subjects: ['task.>'],
    description: 'Task lifecycle and timeline messages.',
    retention: 'limits',
    storage: 'file',
    discard: 'new',
    denyDelete: true,
    denyPurge: true,
    maxAgeMs: 7 * DAY,
    maxBytes: 10 * GIBIBYTE,
    maxMessageSize: 1 * MEBIBYTE,
    // Longer than the default 2 min: daemons replay their outbox after reconnecting.
    duplicateWindowMs: 30 * MINUTE,
    replicas: 3,
  },
  RUNTIME_EVENTS: {
    name: 'RUNTIME_EVENTS',
    subjects: ['runtime.>'],
    description: 'Runtime registration, heartbeats and offline notices.',
    retention: 'limits',
    storage: 'file',
    // Mostly heartbeats, which matter only while fresh: a full stream sheds the oldest.
    discard: 'old',
    denyDelete: true,
    denyPurge: true,
    // Heartbeats are frequent and only recent ones matter.
    maxAgeMs: 1 * DAY,
    maxBytes: 1 * GIBIBYTE,
    maxMessageSize: 64 * 1024,
    duplicateWindowMs: 2 * MINUTE,
    replicas: 3,
  },
  SESSION_EVENTS: {
    name: 'SESSION_EVENTS',
    subjects: ['session.>'],
    description: 'Agent CLI sessions pinned to tasks and retired.',
    retention: 'limits',
    storage: 'file',
    discard: 'new',
    denyDelete: true,
    denyPurge: true,
    maxAgeMs: 30 * DAY,
    maxBytes: 1 * GIBIBYTE,
    maxMessageSize: 64 * 1024,
    duplicateWindowMs: 2 * MINUTE,
    replicas: 3,
  },
  DEAD_LETTERS: {
    name: 'DEAD_LETTERS',
    subjects: [`${DEAD_LETTER_SUBJECT_PREFIX}.>`],
    description: 'Poison messages parked by consumers, with the reason in headers.',
    retention: 'limits',
    storage: 'file',
    // Refusing a new dead letter would stall the consumer parking it; the oldest go first.
    discard: 'old',
    denyDelete: true,
    denyPurge: true,
    maxAgeMs: 14 * DAY,
    maxBytes: 2 * GIBIBYTE,
    maxMessageSize: 1 * MEBIBYTE,
    duplicateWindowMs: 2 * MINUTE,
    replicas: 3,
  },
} as const satisfies Record<string, StreamDefinition>;

export type StreamName = keyof typeof STREAM_CATALOG;

/** Recommended durable consumer settings: finite redelivery with backoff, then dead-letter. */
export const CONSUMER_DEFAULTS = {
  ackPolicy: 'explicit',
  deliverPolicy: 'all',
  ackWaitMs: 30_000,
  maxDeliver: 5,
  // With a backoff the server uses entry n as the ack wait of delivery n, so none is below ackWaitMs.
  backoffMs: [30_000, MINUTE, 2 * MINUTE, 5 * MINUTE],
  maxAckPending: 1_000,
} as const;
