import { StorageType, jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { Kvm, type KV, type KvEntry } from '@nats-io/kv';
import { KEY_VALUE_CATALOG, type KeyValueBucketDefinition } from '@switchyard/contracts';
import type { MessagingConnection } from '../connection/messaging.connection';
import { natsClients } from '../connection/nats-clients';
import { MessagingError, ProvisioningError, describeCause } from '../errors/messaging.errors';

export type { KeyValueBucketDefinition } from '@switchyard/contracts';

/** Writing or watching a key failed; `isRetryable` says whether the bus may answer later. */
export class KeyValueError extends MessagingError {
  constructor(message: string, options: { readonly isRetryable: boolean; readonly cause?: unknown }) {
    super(options.isRetryable ? 'request_failed' : 'permanent', message, options);
  }
}

/** The bucket's name on the server: logical name with the namespace applied, like a stream. */
export function keyValueBucketName(connection: MessagingConnection, logicalName: string): string {
  return connection.namespace.stream(logicalName);
}

// A JetStream client that never calls `$JS.API.INFO`: a daemon may watch one key, not use the API.
function jetStreamFor(connection: MessagingConnection): JetStreamClient {
  const { nats, publishOnly, jetstream: client } = natsClients(connection);
  return publishOnly ? jetstream(nats, { ...client.getOptions(), checkAPI: false }) : client;
}

function openBucket(connection: MessagingConnection, logicalName: string): Promise<KV> {
  // Bound without a stream-info call: a daemon's permissions cover its own key only.
  return new Kvm(jetStreamFor(connection)).open(keyValueBucketName(connection, logicalName));
}

/** Every bucket of the contracts' catalog. */
export function catalogKeyValueDefinitions(): KeyValueBucketDefinition[] {
  return Object.values(KEY_VALUE_CATALOG).map((entry) => ({ ...entry }));
}

/** Creates each bucket that does not exist yet (an existing one is opened as it is). Never deletes. */
export async function provisionKeyValueBuckets(connection: MessagingConnection, definitions: readonly KeyValueBucketDefinition[]): Promise<void> {
  const { nats } = natsClients(connection);
  const replicas = (definition: KeyValueBucketDefinition): number => (nats.info?.cluster ? definition.replicas : 1);
  for (const definition of definitions) {
    const bucket = keyValueBucketName(connection, definition.name);
    try {
      await new Kvm(jetStreamFor(connection)).create(bucket, {
        description: definition.description,
        history: definition.history,
        maxValueSize: definition.maxValueBytes,
        storage: definition.storage === 'memory' ? StorageType.Memory : StorageType.File,
        replicas: replicas(definition),
      });
    } catch (error) {
      throw new ProvisioningError(`key-value bucket ${bucket}: create failed: ${describeCause(error)}`, { isRetryable: true, cause: error });
    }
    connection.logger.info({ bucket: definition.name }, 'key-value bucket provisioned');
  }
}

/** Replaces the value of `key` (JSON); resolves with the new revision. */
export async function putKeyValue(connection: MessagingConnection, options: { readonly bucket: string; readonly key: string; readonly value: unknown }): Promise<number> {
  try {
    const bucket = await openBucket(connection, options.bucket);
    return await bucket.put(options.key, JSON.stringify(options.value));
  } catch (error) {
    throw new KeyValueError(`key ${options.bucket}/${options.key}: put failed: ${describeCause(error)}`, { isRetryable: true, cause: error });
  }
}

/** One value seen by a watch: the parsed JSON, or `deleted` when the key was removed. */
export type KeyValueChange = { readonly kind: 'value'; readonly value: unknown; readonly revision: number } | { readonly kind: 'deleted'; readonly revision: number };

export interface KeyValueWatch {
  /** Resolves when the watch ended: stopped, or the connection closed. */
  readonly ended: Promise<void>;
  stop(): void;
}

function changeOf(entry: KvEntry): KeyValueChange {
  if (entry.operation !== 'PUT') return { kind: 'deleted', revision: entry.revision };
  try {
    return { kind: 'value', value: entry.json<unknown>(), revision: entry.revision };
  } catch {
    // A value that is not JSON is handed on as text: the reader's schema refuses it with a reason.
    return { kind: 'value', value: entry.string(), revision: entry.revision };
  }
}

/**
 * Watches one key: its current value first (when there is one), then every change, in order,
 * until `stop`. `onChange` runs one change at a time; an error it throws is logged, not fatal.
 */
export async function watchKeyValue(
  connection: MessagingConnection,
  options: { readonly bucket: string; readonly key: string; readonly onChange: (change: KeyValueChange) => Promise<void> | void },
): Promise<KeyValueWatch> {
  let iterator: Awaited<ReturnType<KV['watch']>>;
  try {
    const bucket = await openBucket(connection, options.bucket);
    iterator = await bucket.watch({ key: options.key });
  } catch (error) {
    throw new KeyValueError(`key ${options.bucket}/${options.key}: watch failed: ${describeCause(error)}`, { isRetryable: true, cause: error });
  }
  const ended = (async () => {
    for await (const entry of iterator) {
      try {
        await options.onChange(changeOf(entry));
      } catch (error) {
        connection.logger.error({ err: error, bucket: options.bucket, key: options.key }, 'a key-value change could not be applied');
      }
    }
  })();
  return { ended, stop: () => iterator.stop() };
}
