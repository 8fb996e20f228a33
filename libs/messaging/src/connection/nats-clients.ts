import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '../nats-core/nats-core.bridge';
import { InvalidDefinitionError } from '../errors/messaging.errors';

/** The nats.js clients under one `MessagingConnection`. Never exported from the package index. */
export interface NatsClients {
  readonly nats: NatsConnection;
  readonly jetstream: JetStreamClient;
  readonly manager: JetStreamManager;
  /** The identity may only publish to streams: its manager must not be used. */
  readonly publishOnly: boolean;
}

// Keyed by the connection object, so nothing outside this lib can reach the raw clients through it.
const clientsByConnection = new WeakMap<object, NatsClients>();

export function attachNatsClients(connection: object, clients: NatsClients): void {
  clientsByConnection.set(connection, clients);
}

/** The raw clients of a connection opened by `connectMessaging`; inside libs/messaging only. */
export function natsClients(connection: object): NatsClients {
  const clients = clientsByConnection.get(connection);
  if (!clients) throw new InvalidDefinitionError('not a MessagingConnection opened by connectMessaging');
  return clients;
}
