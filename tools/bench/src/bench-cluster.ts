import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { connectMessaging, inboxPrefixOf, mintUserCredentials, startAuthenticatedNatsCluster, type BusAuthority } from '@switchyard/messaging';
import { deleteNamespaceStreams } from '@switchyard/messaging/testing';
import { createBenchSystem, type BenchSystem } from './bench-system';
import type { CleanupStack } from './cleanup-stack';

/**
 * A second bench system on a private three-server JetStream cluster of the bench's authority (the
 * catalog's streams on 3 replicas, as the chart's production values run them), sharing the bench's
 * database: for the sections that compare R3 with the single server.
 */
export async function startClusterBenchSystem(options: { readonly authority: BusAuthority; readonly databaseUrl: string; readonly cleanup: CleanupStack }): Promise<BenchSystem> {
  const { cleanup } = options;
  const directory = mkdtempSync(path.join(tmpdir(), 'switchyard-bench-cluster-'));
  const cluster = await startAuthenticatedNatsCluster({ directory, authority: options.authority, size: 3, name: 'bench' });
  cleanup.defer('stop the bench NATS cluster', () => cluster.stop());
  const namespace = `benchr3${randomBytes(4).toString('hex')}`;
  const tooling = { kind: 'tooling', name: 'bench' } as const;
  const { creds } = await mintUserCredentials(options.authority, { identity: tooling, namespace });
  const connection = await connectMessaging({ url: cluster.urls, name: 'bench-r3', namespace, credentials: creds, inboxPrefix: inboxPrefixOf(tooling) });
  cleanup.defer('close the bench cluster connection', () => connection.close());
  cleanup.defer(`delete the streams of namespace ${namespace}`, async () => {
    await deleteNamespaceStreams(connection);
  });
  return createBenchSystem({ natsUrl: cluster.urls.join(','), authority: options.authority, databaseUrl: options.databaseUrl, namespace, connection, cleanup });
}
