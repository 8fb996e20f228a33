import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectMessaging, type MessagingConnection } from '../connection/messaging.connection';
import { provisionStreams } from '../provisioning/stream.provisioner';
import { publish } from '../publishing/jetstream.publisher';
import { readStream } from '../testing-support/read-stream';
import { streamPlacement } from '../testing-support/stream-cluster';
import { startAuthenticatedNatsCluster, type AuthenticatedNatsCluster } from './authenticated-nats-cluster';
import { createBusAuthority } from './bus-authority';
import { inboxPrefixOf, type BusIdentity } from './bus-identities';
import { mintUserCredentials } from './user-credentials';

// Three operator-mode servers in one JetStream cluster, as the chart's production values run them.
describe('a JetStream cluster of three operator-mode servers', () => {
  const authority = createBusAuthority();
  let cluster: AuthenticatedNatsCluster;
  let connection: MessagingConnection;

  beforeAll(async () => {
    cluster = await startAuthenticatedNatsCluster({ directory: mkdtempSync(path.join(tmpdir(), 'switchyard-cluster-')), authority, size: 3 });
    const identity: BusIdentity = { kind: 'tooling', name: 'cluster-test' };
    const { creds } = await mintUserCredentials(authority, { identity });
    connection = await connectMessaging({ url: cluster.urls, name: 'cluster-test', credentials: creds, inboxPrefix: inboxPrefixOf(identity), reconnectTimeWaitMs: 100, reconnectJitterMs: 0 });
  }, 60_000);
  afterAll(async () => {
    await connection?.close();
    await cluster?.stop();
  });

  it('keeps a stream on three replicas and every acknowledged message when its leader is killed', async () => {
    await provisionStreams(connection, [{ name: 'CLUSTER_CHECK', subjects: ['cluster.check.>'], storage: 'file', replicas: 3 }]);
    const before = await streamPlacement(connection, 'CLUSTER_CHECK');
    expect(before.configuredReplicas).toBe(3);
    expect(before.leader).not.toBeNull();
    expect(before.replicas).toHaveLength(2);

    for (let index = 0; index < 20; index += 1) await publish(connection, { subject: connection.namespace.subject(`cluster.check.${index}`), data: { index }, messageId: `before-${index}` });
    const leader = cluster.member(before.leader!);
    await leader.kill('SIGKILL');
    // The two left elect a leader and take writes; the client moves to a live server.
    for (let index = 20; index < 40; index += 1) await publish(connection, { subject: connection.namespace.subject(`cluster.check.${index}`), data: { index }, messageId: `after-${index}`, retry: { maxAttempts: 20 } });
    const during = await streamPlacement(connection, 'CLUSTER_CHECK');
    expect(during.leader).not.toBe(leader.name);
    await leader.restart();

    const stored = await readStream(connection, 'CLUSTER_CHECK');
    expect(stored.map((entry) => (JSON.parse(entry.text) as { index: number }).index)).toEqual(Array.from({ length: 40 }, (_, index) => index));
  }, 90_000);
});
