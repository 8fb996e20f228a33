import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Objm } from '@nats-io/obj';
import type { MessagingConnection } from '../connection/messaging.connection';
import { natsClients } from '../connection/nats-clients';
import { describeCause } from '../errors/messaging.errors';
import { objectStoreBucketName, objectStoreJetStream } from '../object-store/object-store';

export type AttemptOutcome = { readonly kind: 'done' } | { readonly kind: 'refused'; readonly error: string };

const outcomeOf = async (attempt: () => Promise<unknown>): Promise<AttemptOutcome> => {
  try {
    await attempt();
    return { kind: 'done' };
  } catch (error) {
    return { kind: 'refused', error: describeCause(error) };
  }
};

// Short: a refused request that the server does not answer ends here instead of at the default.
const ATTACK_REQUEST_TIMEOUT_MS = 1_500;

/**
 * What a compromised holder of `connection`'s credentials could try on a bucket with raw nats.js,
 * past every check of the messaging library: overwrite an object, delete it, watch the bucket.
 */
export async function attackObjectStore(
  connection: MessagingConnection,
  options: { readonly bucket: string; readonly name: string; readonly data: Uint8Array },
): Promise<{ readonly overwrite: AttemptOutcome; readonly delete: AttemptOutcome; readonly watch: AttemptOutcome }> {
  const bucket = await new Objm(objectStoreJetStream(connection)).open(objectStoreBucketName(connection, options.bucket), false);
  return {
    overwrite: await outcomeOf(() => bucket.putBlob({ name: options.name }, options.data)),
    delete: await outcomeOf(() => bucket.delete(options.name)),
    watch: await outcomeOf(async () => {
      const watcher = await bucket.watch();
      watcher.stop();
    }),
  };
}

/** The id of an object's chunks (`$O.<bucket>.C.<nuid>`), read by a connection that may: what an attacker would have to guess. */
export async function objectChunkIdOf(connection: MessagingConnection, options: { readonly bucket: string; readonly name: string }): Promise<string> {
  const bucket = await new Objm(objectStoreJetStream(connection)).open(objectStoreBucketName(connection, options.bucket), false);
  const info = await bucket.info(options.name);
  if (info === null) throw new Error(`no object ${options.name} in ${options.bucket}`);
  return info.nuid;
}

/**
 * What a holder of `connection`'s credentials could try, with raw nats.js, to read a bucket it was
 * not granted: an object's metadata, its chunks (knowing their id), any message by sequence (plain
 * and direct get), a consumer over the whole stream, the stream's info. Each reading attempt
 * counts as done only when data came back.
 */
export async function attackForeignObjectStore(
  connection: MessagingConnection,
  options: { readonly bucket: string; readonly name: string; readonly chunkId: string },
): Promise<Record<'info' | 'fetchChunks' | 'messageBySequence' | 'directGetBySequence' | 'consumerOverStream' | 'streamInfo', AttemptOutcome>> {
  const { nats, jetstream: client } = natsClients(connection);
  const jetStreamOptions = { ...client.getOptions(), checkAPI: false, timeout: ATTACK_REQUEST_TIMEOUT_MS };
  const js = jetstream(nats, jetStreamOptions);
  const manager = await jetstreamManager(nats, jetStreamOptions);
  const bucketName = objectStoreBucketName(connection, options.bucket);
  const stream = `OBJ_${bucketName}`;
  const bucket = await new Objm(js).open(bucketName, false);
  const found = (value: unknown): void => {
    if (value === null || value === undefined) throw new Error('nothing came back');
  };
  /** A pull consumer by `name` (filtered when `filter` is given), then one message from it. */
  const readThroughConsumer = async (name: string, filter?: string): Promise<void> => {
    await manager.consumers.add(stream, { name, ack_policy: AckPolicy.None, deliver_policy: DeliverPolicy.All, ...(filter ? { filter_subject: filter } : {}) });
    const consumer = await js.consumers.get(stream, name);
    found(await consumer.next({ expires: ATTACK_REQUEST_TIMEOUT_MS }));
  };
  return {
    info: await outcomeOf(async () => found(await bucket.info(options.name))),
    fetchChunks: await outcomeOf(() => readThroughConsumer('thief-chunks', `$O.${bucketName}.C.${options.chunkId}`)),
    messageBySequence: await outcomeOf(async () => found(await manager.streams.getMessage(stream, { seq: 1 }))),
    directGetBySequence: await outcomeOf(async () => found(await manager.direct.getMessage(stream, { seq: 1 }))),
    consumerOverStream: await outcomeOf(() => readThroughConsumer('thief-all')),
    streamInfo: await outcomeOf(() => manager.streams.info(stream)),
  };
}
