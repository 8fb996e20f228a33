import { millis } from '../nats-core/nats-core.bridge';
import type { MessagingConnection } from '../connection/messaging.connection';
import { natsClients } from '../connection/nats-clients';

/** A durable consumer as the server sees it, in our words. */
export interface ConsumerState {
  /** Stored messages not delivered yet. */
  readonly pending: number;
  /** Delivered and not acknowledged yet. */
  readonly ackPending: number;
  /** Messages delivered more than once. */
  readonly redelivered: number;
  /** Stream sequence of the last delivery, and below which everything is acknowledged. */
  readonly deliveredStreamSequence: number;
  readonly ackFloorStreamSequence: number;
  readonly maxDeliver: number;
  readonly ackWaitMs: number;
}

/** The server's view of a durable consumer (logical stream and consumer names). */
export async function consumerState(connection: MessagingConnection, options: { readonly stream: string; readonly name: string }): Promise<ConsumerState> {
  const info = await natsClients(connection).manager.consumers.info(connection.namespace.stream(options.stream), connection.namespace.consumer(options.name));
  return {
    pending: info.num_pending,
    ackPending: info.num_ack_pending,
    redelivered: info.num_redelivered,
    deliveredStreamSequence: info.delivered.stream_seq,
    ackFloorStreamSequence: info.ack_floor.stream_seq,
    maxDeliver: info.config.max_deliver ?? -1,
    ackWaitMs: millis(info.config.ack_wait ?? 0),
  };
}

/**
 * Closes the connection without draining: unacknowledged deliveries stay unacknowledged and
 * nothing in flight is flushed, as when a process loses NATS or dies.
 */
export async function closeConnectionAbruptly(connection: MessagingConnection): Promise<void> {
  await natsClients(connection).nats.close();
}
