import { nanos } from '../nats-core/nats-core.bridge';
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type ConsumerConfig,
  type StreamConfig,
} from '@nats-io/jetstream';
import type { MessagingConnection } from '../connection/messaging.connection';
import { InvalidDefinitionError, ProvisioningError, describeCause } from '../errors/messaging.errors';
import type { MessagingNamespace } from '../namespace/messaging.namespace';
import {
  validateConsumerDefinition,
  validateStreamDefinition,
  type ConsumerDefinition,
  type StreamDefinition,
} from './stream.definitions';
import { natsClients } from '../connection/nats-clients';

export type ProvisioningAction = 'created' | 'updated' | 'unchanged';

export interface ProvisioningResult {
  /** Logical name (`TASKS`, or `TASKS/projector` for a consumer). */
  readonly name: string;
  readonly action: ProvisioningAction;
}

type DesiredStreamConfig = Partial<StreamConfig> & { name: string; subjects: string[] };
type DesiredConsumerConfig = Partial<ConsumerConfig> & { durable_name: string };

const retentionPolicies = {
  limits: RetentionPolicy.Limits,
  workqueue: RetentionPolicy.Workqueue,
  interest: RetentionPolicy.Interest,
} as const;
const deliverPolicies = {
  all: DeliverPolicy.All,
  new: DeliverPolicy.New,
  last: DeliverPolicy.Last,
  last_per_subject: DeliverPolicy.LastPerSubject,
} as const;
const immutableStreamFields = ['retention', 'storage'] as const;

/** Creates each stream, or updates it when its config differs. Never deletes a stream or its data. */
export async function provisionStreams(
  connection: MessagingConnection,
  definitions: readonly StreamDefinition[],
): Promise<ProvisioningResult[]> {
  const results: ProvisioningResult[] = [];
  // Catalog streams ask for 3 replicas; a single server (laptop, CI) can only hold 1.
  const maxReplicas = natsClients(connection).nats.info?.cluster ? Number.POSITIVE_INFINITY : 1;
  const maxBytesCap = streamMaxBytesCap();
  for (const definition of definitions) {
    validateStreamDefinition(definition);
    const config = toStreamConfig(definition, connection.namespace, { maxReplicas, maxBytesCap });
    const action = await withCreateRace(() => provisionStream(connection, config));
    connection.logger.info({ stream: definition.name, action }, 'stream provisioned');
    results.push({ name: definition.name, action });
  }
  return results;
}

/** Creates each durable consumer, or updates it when its config differs. */
export async function provisionConsumers(
  connection: MessagingConnection,
  definitions: readonly ConsumerDefinition[],
): Promise<ProvisioningResult[]> {
  const results: ProvisioningResult[] = [];
  for (const definition of definitions) {
    validateConsumerDefinition(definition);
    const stream = connection.namespace.stream(definition.stream);
    const action = await withCreateRace(() =>
      provisionConsumer(connection, stream, toConsumerConfig(definition, connection.namespace)),
    );
    connection.logger.info({ stream: definition.stream, consumer: definition.name, action }, 'consumer provisioned');
    results.push({ name: `${definition.stream}/${definition.name}`, action });
  }
  return results;
}

/**
 * JetStream reserves each file stream's `max_bytes` on the server up front. A small server (a
 * laptop, CI, tests that give every file its own namespace) sets `SWITCHYARD_STREAM_MAX_BYTES_CAP`
 * (bytes) to keep the catalog's production sizes from exhausting its storage.
 */
export function streamMaxBytesCap(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env['SWITCHYARD_STREAM_MAX_BYTES_CAP'];
  if (raw === undefined || raw === '') return undefined;
  const cap = Number(raw);
  if (!Number.isInteger(cap) || cap <= 0) throw new InvalidDefinitionError(`SWITCHYARD_STREAM_MAX_BYTES_CAP must be a positive integer of bytes, got ${raw}`);
  return cap;
}

export function toStreamConfig(
  definition: StreamDefinition,
  namespace: MessagingNamespace,
  limits: { readonly maxReplicas: number; readonly maxBytesCap?: number } = { maxReplicas: Number.POSITIVE_INFINITY },
): DesiredStreamConfig {
  const config: DesiredStreamConfig = {
    name: namespace.stream(definition.name),
    subjects: definition.subjects.map((subject) => namespace.subject(subject)),
    retention: retentionPolicies[definition.retention ?? 'limits'],
    storage: definition.storage === 'memory' ? StorageType.Memory : StorageType.File,
    discard: definition.discard === 'new' ? DiscardPolicy.New : DiscardPolicy.Old,
  };
  if (definition.description !== undefined) config.description = definition.description;
  if (definition.replicas !== undefined) config.num_replicas = Math.min(definition.replicas, limits.maxReplicas);
  if (definition.maxAgeMs !== undefined) config.max_age = nanos(definition.maxAgeMs);
  if (definition.maxBytes !== undefined) config.max_bytes = Math.min(definition.maxBytes, limits.maxBytesCap ?? Number.POSITIVE_INFINITY);
  if (definition.maxMessages !== undefined) config.max_msgs = definition.maxMessages;
  if (definition.maxMessagesPerSubject !== undefined) config.max_msgs_per_subject = definition.maxMessagesPerSubject;
  if (definition.maxMessageSize !== undefined) config.max_msg_size = definition.maxMessageSize;
  if (definition.duplicateWindowMs !== undefined) config.duplicate_window = nanos(definition.duplicateWindowMs);
  if (definition.denyDelete) config.deny_delete = true;
  if (definition.denyPurge) config.deny_purge = true;
  return config;
}

export function toConsumerConfig(definition: ConsumerDefinition, namespace: MessagingNamespace): DesiredConsumerConfig {
  const backoff = definition.backoffMs ?? [];
  const filters = (definition.filterSubjects ?? []).map((subject) => namespace.subject(subject));
  const config: DesiredConsumerConfig = {
    durable_name: namespace.consumer(definition.name),
    ack_policy: AckPolicy.Explicit,
    deliver_policy: deliverPolicies[definition.deliverPolicy ?? 'all'],
    // With a backoff list the server takes its first entry as the ack wait; declaring the same
    // keeps repeated provisioning a no-op.
    ack_wait: nanos(backoff[0] ?? definition.ackWaitMs),
    max_deliver: definition.maxDeliver,
  };
  if (backoff.length > 0) config.backoff = backoff.map((delay) => nanos(delay));
  if (definition.maxAckPending !== undefined) config.max_ack_pending = definition.maxAckPending;
  if (definition.description !== undefined) config.description = definition.description;
  // `filter_subjects` (plural) needs nats-server 2.10; a single filter works everywhere.
  if (filters.length === 1) config.filter_subject = filters[0];
  if (filters.length > 1) config.filter_subjects = filters;
  return config;
}

/** Names of the fields whose desired value differs from the server's (arrays compared as sets). */
export function differingFields(desired: object, actual: object): string[] {
  const actualRecord = actual as Record<string, unknown>;
  return Object.entries(desired)
    .filter(([field, value]) => !sameValue(value, actualRecord[field]))
    .map(([field]) => field);
}

function sameValue(desired: unknown, actual: unknown): boolean {
  if (Array.isArray(desired)) {
    if (!Array.isArray(actual) || desired.length !== actual.length) return false;
    const sortedActual = [...(actual as unknown[])].map(String).sort();
    return [...(desired as unknown[])].map(String).sort().every((value, index) => value === sortedActual[index]);
  }
  if (desired === '' && actual === undefined) return true;
  return desired === actual;
}

async function provisionStream(connection: MessagingConnection, desired: DesiredStreamConfig): Promise<ProvisioningAction> {
  const existing = await natsClients(connection).manager.streams.info(desired.name).catch((error: unknown) => {
    if (isApiError(error, JetStreamApiCodes.StreamNotFound)) return undefined;
    throw provisioningError(`stream ${desired.name}: info failed`, error);
  });
  if (!existing) {
    await natsClients(connection).manager.streams.add(desired).catch((error: unknown) => {
      throw provisioningError(`stream ${desired.name}: create failed`, error);
    });
    return 'created';
  }
  const changed = differingFields(desired, existing.config);
  if (changed.length === 0) return 'unchanged';
  const immutable = changed.filter((field) => (immutableStreamFields as readonly string[]).includes(field));
  if (immutable.length > 0) {
    throw new InvalidDefinitionError(
      `stream ${desired.name}: ${immutable.join(', ')} cannot change in place; migrate the stream explicitly`,
    );
  }
  const { name: _name, retention: _retention, storage: _storage, ...updatable } = desired;
  await natsClients(connection).manager.streams.update(desired.name, updatable).catch((error: unknown) => {
    throw provisioningError(`stream ${desired.name}: update of ${changed.join(', ')} failed`, error);
  });
  return 'updated';
}

async function provisionConsumer(
  connection: MessagingConnection,
  stream: string,
  desired: DesiredConsumerConfig,
): Promise<ProvisioningAction> {
  const existing = await natsClients(connection).manager.consumers.info(stream, desired.durable_name).catch((error: unknown) => {
    if (isApiError(error, JetStreamApiCodes.ConsumerNotFound)) return undefined;
    throw provisioningError(`consumer ${stream}/${desired.durable_name}: info failed`, error);
  });
  if (!existing) {
    await natsClients(connection).manager.consumers.add(stream, desired).catch((error: unknown) => {
      throw provisioningError(`consumer ${stream}/${desired.durable_name}: create failed`, error);
    });
    return 'created';
  }
  const changed = differingFields(desired, existing.config);
  if (changed.length === 0) return 'unchanged';
  const { durable_name: _durable, ack_policy: _ackPolicy, deliver_policy: _deliverPolicy, ...updatable } = desired;
  await natsClients(connection).manager.consumers.update(stream, desired.durable_name, updatable).catch((error: unknown) => {
    throw provisioningError(`consumer ${stream}/${desired.durable_name}: update of ${changed.join(', ')} failed`, error);
  });
  return 'updated';
}

// Two instances booting together may both see "not found" and both create; the loser re-reads.
async function withCreateRace(provision: () => Promise<ProvisioningAction>): Promise<ProvisioningAction> {
  try {
    return await provision();
  } catch (error) {
    if (error instanceof ProvisioningError && /already in use|already exists/i.test(describeCause(error.cause))) {
      return provision();
    }
    throw error;
  }
}

function isApiError(error: unknown, code: number): boolean {
  return error instanceof JetStreamApiError && error.code === code;
}

function provisioningError(message: string, cause: unknown): ProvisioningError {
  // API errors (bad config, limits) will fail again; transport errors (timeouts) may not.
  const isRetryable = !(cause instanceof JetStreamApiError);
  return new ProvisioningError(`${message}: ${describeCause(cause)}`, { isRetryable, cause });
}
