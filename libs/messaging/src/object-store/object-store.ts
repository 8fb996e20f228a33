import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { Objm, type ObjectStore } from '@nats-io/obj';
import type { MessagingConnection } from '../connection/messaging.connection';
import { natsClients } from '../connection/nats-clients';
import { MessagingError, describeCause } from '../errors/messaging.errors';

/** Reading or writing an object failed; `isRetryable` says whether the bus may answer later. */
export class ObjectStoreError extends MessagingError {
  constructor(message: string, options: { readonly isRetryable: boolean; readonly cause?: unknown }) {
    super(options.isRetryable ? 'request_failed' : 'permanent', message, options);
  }
}

/** The bucket's name on the server: logical name with the namespace applied, like a stream. */
export function objectStoreBucketName(connection: MessagingConnection, logicalName: string): string {
  return connection.namespace.stream(logicalName);
}

/** A JetStream client that never calls `$JS.API.INFO`: a daemon may read a bucket but not the API. */
export function objectStoreJetStream(connection: MessagingConnection): JetStreamClient {
  const { nats, publishOnly, jetstream: client } = natsClients(connection);
  return publishOnly ? jetstream(nats, { ...client.getOptions(), checkAPI: false }) : client;
}

function openBucket(connection: MessagingConnection, logicalName: string): Promise<ObjectStore> {
  // Opened without a stream-info check: a reader's permissions cover the bucket's objects only.
  return new Objm(objectStoreJetStream(connection)).open(objectStoreBucketName(connection, logicalName), false);
}

/**
 * Stores `data` under `name` unless an object of that name exists: for content-addressed buckets,
 * where a name (a hash) always means the same bytes. `present` when it was there already.
 */
export async function putObjectIfAbsent(
  connection: MessagingConnection,
  options: { readonly bucket: string; readonly name: string; readonly data: Uint8Array },
): Promise<'stored' | 'present'> {
  try {
    const bucket = await openBucket(connection, options.bucket);
    if ((await bucket.info(options.name)) !== null) return 'present';
    await bucket.putBlob({ name: options.name }, options.data);
    return 'stored';
  } catch (error) {
    throw new ObjectStoreError(`object ${options.bucket}/${options.name}: put failed: ${describeCause(error)}`, { isRetryable: true, cause: error });
  }
}

export type ReadObjectResult =
  | { readonly kind: 'found'; readonly data: Uint8Array }
  | { readonly kind: 'missing' }
  | { readonly kind: 'too_large'; readonly size: number }
  /** The server refused this identity the bucket: asking again will not help. */
  | { readonly kind: 'refused'; readonly detail: string };

/**
 * Reads a whole object, refusing one above `maxBytes` before any chunk is fetched. nats.js checks
 * the object's own sha256 digest while reading; a corrupt object is an error.
 */
export async function readObject(
  connection: MessagingConnection,
  options: { readonly bucket: string; readonly name: string; readonly maxBytes: number },
): Promise<ReadObjectResult> {
  try {
    const bucket = await openBucket(connection, options.bucket);
    const info = await bucket.info(options.name);
    if (info === null || info.deleted) return { kind: 'missing' };
    if (info.size > options.maxBytes) return { kind: 'too_large', size: info.size };
    const data = await bucket.getBlob(options.name);
    return data === null ? { kind: 'missing' } : { kind: 'found', data };
  } catch (error) {
    const cause = describeCause(error);
    // nats.js rejects a request to a subject outside the user's grant with the server's refusal.
    if (/permissions violation/i.test(cause)) return { kind: 'refused', detail: cause };
    throw new ObjectStoreError(`object ${options.bucket}/${options.name}: read failed: ${cause}`, { isRetryable: true, cause: error });
  }
}
