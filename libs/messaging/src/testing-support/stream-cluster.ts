import type { MessagingConnection } from '../connection/messaging.connection';
import { natsClients } from '../connection/nats-clients';

export interface StreamPlacement {
  /** The server leading the stream (its `server_name`), or null during an election. */
  readonly leader: string | null;
  /** The other servers holding a replica, and whether each has caught up. */
  readonly replicas: ReadonlyArray<{ readonly name: string; readonly current: boolean }>;
  readonly configuredReplicas: number;
}

/** Where a stream of the namespace lives in a cluster (the leader a fault test kills). */
export async function streamPlacement(connection: MessagingConnection, logicalStream: string): Promise<StreamPlacement> {
  const info = await natsClients(connection).manager.streams.info(connection.namespace.stream(logicalStream));
  return {
    leader: info.cluster?.leader ?? null,
    replicas: (info.cluster?.replicas ?? []).map((replica) => ({ name: replica.name, current: replica.current })),
    configuredReplicas: info.config.num_replicas,
  };
}
