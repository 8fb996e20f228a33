import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { connectMessaging, inboxPrefixOf, mintUserCredentials, startAuthenticatedNatsCluster, type BusAuthority } from '@switchyard/messaging';
import { deleteNamespaceStreams } from '@switchyard/messaging/testing';
import { createBenchSystem, type BenchSystem } from './bench-system';
import { createCleanupStack, type CleanupStack } from './cleanup-stack';

/** The cluster's system, and how to take all of it down (servers, services, streams) before the next section. */
export interface ClusterBenchSystem {
  readonly system: BenchSystem;
  stop(): Promise<void>;
}

/**
 * A second bench system on a private three-server JetStream cluster of the bench's authority (the
 * catalog's streams on 3 replicas, as the chart's production values run them), sharing the bench's
 * database: for the sections that compare R3 with the single server. What it starts is undone by
 * `stop`, or with the run's cleanup when a section fails first.
 */
export async function startClusterBenchSystem(options: { readonly authority: BusAuthority; readonly databaseUrl: string; readonly cleanup: CleanupStack }): Promise<ClusterBenchSystem> {
  const cleanup = createCleanupStack();
  const stop = async (): Promise<void> => {
    for (const failure of await cleanup.unwind()) process.stderr.write(`bench cleanup: ${failure.label} failed: ${String(failure.error)}\n`);
  };
  options.cleanup.defer('take the bench NATS cluster down', stop);
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
  const system = createBenchSystem({ natsUrl: cluster.urls.join(','), authority: options.authority, databaseUrl: options.databaseUrl, namespace, connection, cleanup });
  return { system, stop };
}
