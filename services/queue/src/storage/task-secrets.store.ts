import type { EntityManager } from 'typeorm';
import type { AgentSecretValues } from '@switchyard/contracts';
import type { AlongsideStatement } from '@switchyard/event-store';
import { SecretUnreadableError, type SecretKeyring } from '@switchyard/persistence';

const PURPOSE = 'task secret bundle';

/** Keeps the secret values of one enqueued agent snapshot, sealed, with the enqueue's events; a repeat of the same bundle changes nothing. */
export function secretBundleStatement(keyring: SecretKeyring, bundleId: string, values: AgentSecretValues): AlongsideStatement {
  const sealed = keyring.seal(PURPOSE, JSON.stringify(values));
  return (first) => ({ sql: `insert into task_secret_bundle (bundle_id, sealed) values ($${first}, $${first + 1}) on conflict (bundle_id) do nothing`, parameters: [bundleId, sealed] });
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
