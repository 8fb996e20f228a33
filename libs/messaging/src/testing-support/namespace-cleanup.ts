import type { MessagingConnection } from '../connection/messaging.connection';
import { InvalidDefinitionError } from '../errors/messaging.errors';
import { natsClients } from '../connection/nats-clients';

/**
 * Deletes every stream whose name carries this connection's namespace. For test teardown only:
 * refuses to run without a namespace so it can never touch shared streams.
 */
export async function deleteNamespaceStreams(connection: MessagingConnection): Promise<string[]> {
  const namespace = connection.namespace.value;
  if (namespace === undefined) {
    throw new InvalidDefinitionError('deleteNamespaceStreams needs a namespaced connection');
  }
  const deleted: string[] = [];
  for await (const name of natsClients(connection).manager.streams.names()) {
    // Key-value buckets and object stores keep their streams as `KV_<bucket>` and `OBJ_<bucket>`.
    if ([`${namespace}_`, `KV_${namespace}_`, `OBJ_${namespace}_`].some((prefix) => name.startsWith(prefix))) {
      await natsClients(connection).manager.streams.delete(name);
      deleted.push(name);
    }
  }
  return deleted;
}
