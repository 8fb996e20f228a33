import { KEY_VALUE_CATALOG } from '@switchyard/contracts';
import {
  KeyValueError,
  catalogKeyValueDefinitions,
  provisionKeyValueBuckets,
  putKeyValue,
  watchKeyValue,
  type KeyValueChange,
  type KeyValueWatch,
  type MessagingConnection,
} from '@switchyard/messaging';
import { attackKeyValueBucket, watchPermissionViolations } from '@switchyard/messaging/testing';
import { connectTestMessaging, uniqueNamespace } from '@switchyard/testing';

const BUCKET = KEY_VALUE_CATALOG.RUNTIME_PROFILES.name;
const snapshot = (workspaceId: string, commandName: string): unknown => ({
  schemaVersion: 1,
  workspaceId,
  profiles: [{ profileId: 'p1', displayName: 'Kimi', protocolFamily: 'acp', commandName, fixedArgs: ['acp'] }],
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** The first change a watch delivers, or the watch's refusal. */
async function firstChange(connection: MessagingConnection, key: string): Promise<{ change: KeyValueChange; watch: KeyValueWatch }> {
  let resolveChange: (change: KeyValueChange) => void = () => undefined;
  const changed = new Promise<KeyValueChange>((resolve) => (resolveChange = resolve));
  const watch = await watchKeyValue(connection, { bucket: BUCKET, key, onChange: (change) => resolveChange(change) });
  return { change: await changed, watch };
}

/**
 * Issue 17: runtime profiles on the operator-mode test bus. The gateway writes each workspace's
 * key; a daemon watches its own workspace's key and can neither read another workspace's nor
 * write any, even speaking raw nats.js with its own credentials.
 */
describe('the runtime-profiles bucket: gateway writes, a daemon reads only its workspace', () => {
  const namespace = uniqueNamespace();
  const opened: MessagingConnection[] = [];
  let gateway: MessagingConnection;
  let alphaDaemon: MessagingConnection;

  beforeAll(async () => {
    gateway = await connectTestMessaging({ name: 'profiles-gateway', namespace, identity: { kind: 'service', name: 'gateway' } });
    alphaDaemon = await connectTestMessaging({ name: 'profiles-daemon', namespace, identity: { kind: 'daemon', daemonId: 'profiles-reader', workspaceId: 'ws-alpha' }, requestTimeoutMs: 1_500 });
    opened.push(gateway, alphaDaemon);
    await provisionKeyValueBuckets(gateway, catalogKeyValueDefinitions());
    await putKeyValue(gateway, { bucket: BUCKET, key: 'ws-alpha', value: snapshot('ws-alpha', 'kimi') });
    await putKeyValue(gateway, { bucket: BUCKET, key: 'ws-beta', value: snapshot('ws-beta', 'beta-secret-cli') });
  });
  afterAll(async () => {
    await Promise.all(opened.map((connection) => connection.close()));
  });

  it("lets a daemon watch its own workspace's key: the current value, then each change", async () => {
    const changes: KeyValueChange[] = [];
    const arrivals = [deferred(), deferred()];
    const watch = await watchKeyValue(alphaDaemon, {
      bucket: BUCKET,
      key: 'ws-alpha',
      onChange: (change) => {
        changes.push(change);
        arrivals[changes.length - 1]?.resolve();
      },
    });
    // The watch's consumer may reach the server after `watchKeyValue` resolves; a put before it
    // would be delivered as the current value alone. Writing after the first arrival avoids that.
    await arrivals[0]!.promise;
    await putKeyValue(gateway, { bucket: BUCKET, key: 'ws-alpha', value: snapshot('ws-alpha', 'kimi-2') });
    await arrivals[1]!.promise;
    watch.stop();

    expect(changes.map((change) => (change.kind === 'value' ? change.value : change.kind))).toEqual([snapshot('ws-alpha', 'kimi'), snapshot('ws-alpha', 'kimi-2')]);
  });

  it("refuses a daemon that watches another workspace's key through the messaging library", async () => {
    const violations = watchPermissionViolations(alphaDaemon);
    await expect(firstChange(alphaDaemon, 'ws-beta')).rejects.toThrow(KeyValueError);
    await expect(violations.next(/ws-beta/)).resolves.toMatch(/Permissions Violation/);
  });

  it('refuses a daemon enrolled without a workspace any key', async () => {
    const stranger = await connectTestMessaging({ name: 'profiles-stranger', namespace, identity: { kind: 'daemon', daemonId: 'profiles-stranger' }, requestTimeoutMs: 1_500 });
    opened.push(stranger);
    await expect(firstChange(stranger, 'ws-alpha')).rejects.toThrow(KeyValueError);
  });

  it('refuses a daemon that writes its own or another workspace\'s profiles; the values are unchanged', async () => {
    await expect(putKeyValue(alphaDaemon, { bucket: BUCKET, key: 'ws-alpha', value: snapshot('ws-alpha', 'evil') })).rejects.toThrow(KeyValueError);
    await expect(putKeyValue(alphaDaemon, { bucket: BUCKET, key: 'ws-beta', value: snapshot('ws-beta', 'evil') })).rejects.toThrow(KeyValueError);
    const { change, watch } = await firstChange(gateway, 'ws-beta');
    watch.stop();
    expect(change).toMatchObject({ kind: 'value', value: snapshot('ws-beta', 'beta-secret-cli') });
  });

  it("refuses a daemon speaking raw nats.js with its own credentials: no other workspace's value, no put, no delete, no listing", async () => {
    const outcomes = await attackKeyValueBucket(alphaDaemon, { bucket: BUCKET, ownKey: 'ws-alpha', otherKey: 'ws-beta' });

    expect(outcomes).toEqual({
      readOther: { kind: 'refused', error: expect.any(String) },
      directGetOther: { kind: 'refused', error: expect.any(String) },
      putOwn: { kind: 'refused', error: expect.any(String) },
      deleteOwn: { kind: 'refused', error: expect.any(String) },
      watchAll: { kind: 'refused', error: expect.any(String) },
    });
  });
});
