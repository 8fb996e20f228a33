import { DeliverPolicy, JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import type { MessagingConnection } from '../connection/messaging.connection';
import { differingFields, toConsumerConfig } from '../provisioning/stream.provisioner';
import type { ConsumerDefinition } from '../provisioning/stream.definitions';
import { natsClients } from '../connection/nats-clients';

const isConsumerNotFound = (error: unknown): boolean => error instanceof JetStreamApiError && error.code === JetStreamApiCodes.ConsumerNotFound;

/**
 * Creates the durable consumer when it is missing, or brings its settings up to date. A new
 * consumer starts right after `startAfter()` when that names a stream sequence (the consumer was
 * deleted and the owner keeps its own checkpoint), else where the definition says.
 */
export async function ensureDurableConsumer(options: {
  readonly connection: MessagingConnection;
  readonly definition: ConsumerDefinition;
  readonly startAfter: () => Promise<number | undefined>;
}): Promise<{ readonly outcome: 'created' | 'updated' | 'unchanged'; readonly startedAfter?: number | undefined }> {
  const { connection, definition } = options;
  const stream = connection.namespace.stream(definition.stream);
  const desired = toConsumerConfig(definition, connection.namespace);
  const existing = await natsClients(connection).manager.consumers.info(stream, desired.durable_name).catch((error: unknown) => {
    if (isConsumerNotFound(error)) return undefined;
    throw error;
  });
  if (!existing) {
    const startAfter = await options.startAfter();
    const start = startAfter === undefined ? {} : { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: startAfter + 1 };
    try {
      await natsClients(connection).manager.consumers.add(stream, { ...desired, ...start });
    } catch (error) {
      // Another replica created it first: fine, it is the same consumer.
      if (!(error instanceof JetStreamApiError && /already in use|already exists/i.test(error.message))) throw error;
    }
    return { outcome: 'created', startedAfter: startAfter };
  }
  const { durable_name: _durable, ack_policy: _ackPolicy, deliver_policy: _deliverPolicy, ...updatable } = desired;
  if (differingFields(updatable, existing.config).length === 0) return { outcome: 'unchanged' };
  await natsClients(connection).manager.consumers.update(stream, desired.durable_name, updatable);
  return { outcome: 'updated' };
}

/** Removes a durable consumer; true when there was one. */
export async function deleteDurableConsumer(connection: MessagingConnection, options: { readonly stream: string; readonly name: string }): Promise<boolean> {
  return natsClients(connection).manager.consumers.delete(connection.namespace.stream(options.stream), connection.namespace.consumer(options.name)).catch((error: unknown) => {
    if (isConsumerNotFound(error)) return false;
    throw error;
  });
}

/** Messages a durable consumer has not had acknowledged yet: still to deliver plus in flight. */
export async function durableConsumerBacklog(connection: MessagingConnection, options: { readonly stream: string; readonly name: string }): Promise<number> {
  const info = await natsClients(connection).manager.consumers.info(connection.namespace.stream(options.stream), connection.namespace.consumer(options.name));
  return info.num_pending + info.num_ack_pending;
}
