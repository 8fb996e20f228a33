import type { EntityManager } from 'typeorm';
import type { AgentSecretValues } from '@switchyard/contracts';
import { SecretUnreadableError, type SecretKeyring } from '@switchyard/persistence';

const PURPOSE = 'task secret bundle';

/** Keeps the secret values of one enqueued agent snapshot, sealed; a repeat of the same bundle changes nothing. */
export async function storeSecretBundle(manager: EntityManager, keyring: SecretKeyring, bundleId: string, values: AgentSecretValues): Promise<void> {
  await manager.query('insert into task_secret_bundle (bundle_id, sealed) values ($1, $2) on conflict (bundle_id) do nothing', [
    bundleId,
    keyring.seal(PURPOSE, JSON.stringify(values)),
  ]);
}

/**
 * The values of these bundles, merged (their references never collide: each names its bundle), in
 * one read. A bundle sealed under a key the ring lacks is left out and named in `unreadable`.
 */
export async function readSecretBundles(
  manager: EntityManager,
  keyring: SecretKeyring,
  bundleIds: readonly string[],
): Promise<{ readonly values: AgentSecretValues; readonly unreadable: string[] }> {
  const values: AgentSecretValues = {};
  const unreadable: string[] = [];
  if (bundleIds.length === 0) return { values, unreadable };
  const rows = await manager.query<Array<{ bundle_id: string; sealed: string }>>('select bundle_id, sealed from task_secret_bundle where bundle_id = any($1)', [[...new Set(bundleIds)]]);
  for (const row of rows) {
    try {
      Object.assign(values, JSON.parse(keyring.open(PURPOSE, row.sealed)) as AgentSecretValues);
    } catch (error) {
      if (!(error instanceof SecretUnreadableError)) throw error;
      unreadable.push(row.bundle_id);
    }
  }
  return { values, unreadable };
}

/**
 * Keeps the first curve key a daemon id claims with, and says whether `publicKey` is it: a
 * later claim with another key (someone else's box to open) is refused by the caller.
 */
export async function isPinnedSealingKey(manager: EntityManager, daemonId: string, publicKey: string): Promise<boolean> {
  // Usually one statement: the row this insert adds, else the one already there (the select does not see the insert).
  const rows = await manager.query<Array<{ public_key: string }>>(
    `with pinned as (insert into daemon_sealing_key (daemon_id, public_key) values ($1, $2) on conflict (daemon_id) do nothing returning public_key)
     select public_key from pinned union all select public_key from daemon_sealing_key where daemon_id = $1`,
    [daemonId, publicKey],
  );
  if (rows.length > 0) return rows[0]?.public_key === publicKey;
  // A concurrent first claim pinned it after this statement's snapshot: read it with a fresh one.
  const committed = await manager.query<Array<{ public_key: string }>>('select public_key from daemon_sealing_key where daemon_id = $1', [daemonId]);
  return committed[0]?.public_key === publicKey;
}
