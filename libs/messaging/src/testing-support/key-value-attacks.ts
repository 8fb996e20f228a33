import { jetstream } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import type { MessagingConnection } from '../connection/messaging.connection';
import { natsClients } from '../connection/nats-clients';
import { describeCause } from '../errors/messaging.errors';
import { keyValueBucketName } from '../key-value/key-value';
import type { AttemptOutcome } from './object-store-attacks';

const outcomeOf = async (attempt: () => Promise<unknown>): Promise<AttemptOutcome> => {
  try {
    await attempt();
    return { kind: 'done' };
  } catch (error) {
    return { kind: 'refused', error: describeCause(error) };
  }
};

/**
 * What a compromised holder of `connection`'s credentials could try on a key-value bucket with
 * raw nats.js, past every check of the messaging library: read another key (stream get and direct
 * get), overwrite or delete its own key, watch every key.
 */
export async function attackKeyValueBucket(
  connection: MessagingConnection,
  options: { readonly bucket: string; readonly ownKey: string; readonly otherKey: string },
): Promise<Record<'readOther' | 'directGetOther' | 'putOwn' | 'deleteOwn' | 'watchAll', AttemptOutcome>> {
  const { nats, jetstream: client } = natsClients(connection);
  const js = jetstream(nats, { ...client.getOptions(), checkAPI: false, timeout: 1_500 });
  const bucketName = keyValueBucketName(connection, options.bucket);
  const bucket = await new Kvm(js).open(bucketName);
  const found = (value: unknown): void => {
    if (value === null || value === undefined) throw new Error('nothing came back');
  };
  return {
    readOther: await outcomeOf(async () => found(await bucket.get(options.otherKey))),
    directGetOther: await outcomeOf(async () => {
      const reply = await nats.request(`$JS.API.DIRECT.GET.KV_${bucketName}.$KV.${bucketName}.${options.otherKey}`, undefined, { timeout: 1_500 });
      if (reply.data.length === 0 && reply.headers?.get('Status') !== '') throw new Error(`direct get answered ${reply.headers?.get('Status') ?? 'nothing'}`);
    }),
    putOwn: await outcomeOf(() => bucket.put(options.ownKey, '{"schemaVersion":1,"profiles":[]}')),
    deleteOwn: await outcomeOf(() => bucket.delete(options.ownKey)),
    watchAll: await outcomeOf(async () => {
      const watcher = await bucket.watch();
      watcher.stop();
    }),
  };
}
