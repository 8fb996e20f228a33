import { natsClients, type NatsClients } from '../connection/nats-clients';
import type { MessagingConnection } from '../connection/messaging.connection';

/**
 * The nats.js clients under a connection, for the benchmarks that measure nats.js itself as a
 * baseline (tools/bench). Tests use the typed helpers of this entry point instead.
 */
export function benchmarkNatsClients(connection: MessagingConnection): NatsClients {
  return natsClients(connection);
}
