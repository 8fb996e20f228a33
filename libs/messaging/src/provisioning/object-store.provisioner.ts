import { Objm, StorageType } from '@nats-io/obj';
import { OBJECT_STORE_CATALOG, type ObjectStoreDefinition } from '@switchyard/contracts';
import type { MessagingConnection } from '../connection/messaging.connection';
import { natsClients } from '../connection/nats-clients';
import { ProvisioningError, describeCause } from '../errors/messaging.errors';
import { objectStoreBucketName, objectStoreJetStream } from '../object-store/object-store';
import { streamMaxBytesCap } from './stream.provisioner';

export type { ObjectStoreDefinition } from '@switchyard/contracts';

/** Every bucket of the contracts' catalog. */
export function catalogObjectStoreDefinitions(): ObjectStoreDefinition[] {
  return Object.values(OBJECT_STORE_CATALOG).map((entry) => ({ ...entry }));
}

/** Creates each bucket that does not exist yet. Never deletes a bucket or an object. */
export async function provisionObjectStores(connection: MessagingConnection, definitions: readonly ObjectStoreDefinition[]): Promise<void> {
  const { nats } = natsClients(connection);
  // A single server (laptop, CI) holds one replica; the catalog asks for a cluster's three.
  const replicas = (definition: ObjectStoreDefinition): number => (nats.info?.cluster ? definition.replicas : 1);
  for (const definition of definitions) {
    const bucket = objectStoreBucketName(connection, definition.name);
    try {
      await new Objm(objectStoreJetStream(connection)).create(bucket, {
        description: definition.description,
        storage: definition.storage === 'memory' ? StorageType.Memory : StorageType.File,
        replicas: replicas(definition),
        max_bytes: Math.min(definition.maxBytes, streamMaxBytesCap() ?? Number.POSITIVE_INFINITY),
      });
    } catch (error) {
      throw new ProvisioningError(`object store ${bucket}: create failed: ${describeCause(error)}`, { isRetryable: true, cause: error });
    }
    connection.logger.info({ bucket: definition.name }, 'object store provisioned');
  }
}
