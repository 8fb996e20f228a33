import type { EntityManager } from 'typeorm';
import type { AgentSecretValues } from '@switchyard/contracts';
import type { SecretKeyring } from '@switchyard/persistence';

const PURPOSE = 'task secret bundle';

/** Keeps the secret values of one enqueued agent snapshot, sealed; a repeat of the same bundle changes nothing. */
export async function storeSecretBundle(manager: EntityManager, keyring: SecretKeyring, bundleId: string, values: AgentSecretValues): Promise<void> {
  await manager.query('insert into task_secret_bundle (bundle_id, sealed) values ($1, $2) on conflict (bundle_id) do nothing', [
    bundleId,
    keyring.seal(PURPOSE, JSON.stringify(values)),
  ]);
}

/** The values of these bundles, merged (their references never collide: each names its bundle). */
export async function readSecretBundles(manager: EntityManager, keyring: SecretKeyring, bundleIds: readonly string[]): Promise<AgentSecretValues> {
  if (bundleIds.length === 0) return {};
  const rows = await manager.query<Array<{ sealed: string }>>('select sealed from task_secret_bundle where bundle_id = any($1)', [[...new Set(bundleIds)]]);
  return Object.assign({}, ...rows.map((row) => JSON.parse(keyring.open(PURPOSE, row.sealed)) as AgentSecretValues)) as AgentSecretValues;
}

/**
 * Keeps the first curve key a daemon id claims with, and says whether `publicKey` is it: a
 * later claim with another key (someone else's box to open) is refused by the caller.
 */
export async function isPinnedSealingKey(manager: EntityManager, daemonId: string, publicKey: string): Promise<boolean> {
  await manager.query('insert into daemon_sealing_key (daemon_id, public_key) values ($1, $2) on conflict (daemon_id) do nothing', [daemonId, publicKey]);
  const rows = await manager.query<Array<{ public_key: string }>>('select public_key from daemon_sealing_key where daemon_id = $1', [daemonId]);
  return rows[0]?.public_key === publicKey;
}
