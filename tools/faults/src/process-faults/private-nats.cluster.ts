import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startAuthenticatedNatsCluster, type AuthenticatedNatsCluster } from '@switchyard/messaging';
import { testBusAuthority } from '@switchyard/testing';

/**
 * Three nats-servers of the suite's own in one JetStream cluster (the catalog's streams then keep
 * 3 replicas), in operator mode with the test bus's authority so the test's users connect to it.
 * `natsUrl` lists every server, as a deployment's NATS_URL does.
 */
export async function startPrivateNatsCluster(): Promise<AuthenticatedNatsCluster & { readonly natsUrl: string }> {
  const directory = await mkdtemp(path.join(tmpdir(), 'switchyard-faults-cluster-'));
  const cluster = await startAuthenticatedNatsCluster({ directory, authority: testBusAuthority(), size: 3, name: 'faults' });
  return Object.assign(cluster, { natsUrl: cluster.urls.join(',') });
}
