import { STREAM_CATALOG, subjects } from '@switchyard/contracts';
import { InvalidDefinitionError } from '../errors/messaging.errors';

/** A stream declared as code; names and subjects are logical (the namespace is applied later). */
export interface StreamDefinition {
  readonly name: string;
  readonly subjects: readonly string[];
  readonly description?: string;
  /** `limits` keeps a log, `workqueue` removes on ack, `interest` removes when every consumer acked. */
  readonly retention?: 'limits' | 'workqueue' | 'interest';
  readonly storage?: 'file' | 'memory';
  readonly replicas?: number;
  readonly maxAgeMs?: number;
  readonly maxBytes?: number;
  readonly maxMessages?: number;
  readonly maxMessagesPerSubject?: number;
  readonly maxMessageSize?: number;
  /** Window in which a repeated `Nats-Msg-Id` is dropped (server default: 2 minutes). */
  readonly duplicateWindowMs?: number;
  readonly discard?: 'old' | 'new';
  /** Once set the server never lets it be unset (nor does this provisioner try). */
  readonly denyDelete?: boolean;
  readonly denyPurge?: boolean;
}

/** A durable pull consumer with explicit acks, declared as code. */
export interface ConsumerDefinition {
  /** Logical stream name. */
  readonly stream: string;
  /** Logical durable name. */
  readonly name: string;
  readonly description?: string;
  /** Logical subjects; empty means the whole stream. More than one needs nats-server 2.10. */
  readonly filterSubjects?: readonly string[];
  /** Time a delivery may stay unacknowledged before redelivery (handlers extend it with `working()`). */
  readonly ackWaitMs: number;
  /** Deliveries before the message goes to the dead-letter subject. */
  readonly maxDeliver: number;
  /**
   * Redelivery delays: used by the server after an ack timeout (where entry n replaces `ackWaitMs`
   * for delivery n, so keep entries above a handler's run time or call `working()`) and by the
   * consumer loop as `nak` delays after a handler error. Needs `maxDeliver > backoffMs.length`.
   */
  readonly backoffMs?: readonly number[];
  /** Unacknowledged deliveries in flight across all instances (server default 1000). */
  readonly maxAckPending?: number;
  readonly deliverPolicy?: 'all' | 'new' | 'last' | 'last_per_subject';
}

export const DEAD_LETTER_STREAM_NAME = STREAM_CATALOG.DEAD_LETTERS.name;

/** Logical subject where a consumer's poison messages go: `dlq.<stream>.<consumer>`. */
export function deadLetterSubject(stream: string, consumer: string): string {
  return subjects.deadLetter(stream, consumer);
}

/** Every stream of the contracts' catalog, as provisioning definitions. */
export function catalogStreamDefinitions(): StreamDefinition[] {
  return Object.values(STREAM_CATALOG).map((entry) => ({ ...entry, subjects: [...entry.subjects] }));
}

/** The stream holding every consumer's dead letters (`dlq.>`), kept for inspection and replay. */
export function deadLetterStreamDefinition(overrides: Partial<Omit<StreamDefinition, 'subjects'>> = {}): StreamDefinition {
  const catalogEntry = STREAM_CATALOG.DEAD_LETTERS;
  return { ...catalogEntry, ...overrides, subjects: [...catalogEntry.subjects] };
}

export function validateStreamDefinition(definition: StreamDefinition): void {
  if (definition.subjects.length === 0) {
    throw new InvalidDefinitionError(`stream ${definition.name} needs at least one subject`);
  }
  for (const [field, value] of Object.entries({
    maxAgeMs: definition.maxAgeMs,
    maxBytes: definition.maxBytes,
    maxMessages: definition.maxMessages,
    maxMessagesPerSubject: definition.maxMessagesPerSubject,
    maxMessageSize: definition.maxMessageSize,
    duplicateWindowMs: definition.duplicateWindowMs,
    replicas: definition.replicas,
  })) {
    if (value !== undefined && (!Number.isInteger(value) || value <= 0)) {
      throw new InvalidDefinitionError(`stream ${definition.name}: ${field} must be a positive integer`);
    }
  }
}

export function validateConsumerDefinition(definition: ConsumerDefinition): void {
  const label = `consumer ${definition.stream}/${definition.name}`;
  if (!Number.isInteger(definition.maxDeliver) || definition.maxDeliver < 1) {
    throw new InvalidDefinitionError(`${label}: maxDeliver must be a positive integer (unbounded redelivery is not allowed)`);
  }
  if (!Number.isInteger(definition.ackWaitMs) || definition.ackWaitMs <= 0) {
    throw new InvalidDefinitionError(`${label}: ackWaitMs must be a positive integer`);
  }
  const backoff = definition.backoffMs ?? [];
  if (backoff.some((delay) => !Number.isInteger(delay) || delay <= 0)) {
    throw new InvalidDefinitionError(`${label}: backoffMs entries must be positive integers`);
  }
  if (backoff.length > 0 && definition.maxDeliver <= backoff.length) {
    throw new InvalidDefinitionError(`${label}: maxDeliver (${definition.maxDeliver}) must exceed backoffMs.length (${backoff.length})`);
  }
}
