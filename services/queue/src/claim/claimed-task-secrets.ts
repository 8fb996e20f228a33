import { resolveAgentSecrets, secretRefsOf, bundleIdOfSecretRef, separateAgentSecrets, type AgentSnapshot } from '@switchyard/contracts';
import { sealToCurveKey } from '@switchyard/messaging';
import { SecretUnreadableError, type SecretKeyring } from '@switchyard/persistence';
import type { EntityManager } from 'typeorm';
import { readSecretBundles } from '../storage/task-secrets.store';

/**
 * What a claim reply carries of the agent's secrets: the snapshot with references only, and the
 * values sealed to the claiming daemon's curve key. A snapshot enqueued before secrets were taken
 * out of events holds values in clear; they are taken out here too, so no reply carries one. A
 * bundle sealed under a key the queue no longer has is not opened: the daemon then finds no value
 * for the references and fails that run (`internal`, naming them), and the claim of the other
 * tasks goes on.
 */
export async function sealClaimedAgent(
  manager: EntityManager,
  options: { readonly keyring: SecretKeyring; readonly agent: AgentSnapshot; readonly attemptRef: string; readonly sealingKey: string },
): Promise<{ readonly agent: AgentSnapshot; readonly sealedSecrets: string | null }> {
  let bundled;
  try {
    bundled = await readSecretBundles(manager, options.keyring, secretRefsOf(options.agent).map(bundleIdOfSecretRef));
  } catch (error) {
    if (!(error instanceof SecretUnreadableError)) throw error;
    return { agent: separateAgentSecrets(options.agent, options.attemptRef).agent, sealedSecrets: null };
  }
  const { agent, values } = separateAgentSecrets(resolveAgentSecrets(options.agent, bundled), options.attemptRef);
  return { agent, sealedSecrets: Object.keys(values).length === 0 ? null : sealToCurveKey(options.sealingKey, JSON.stringify(values)) };
}
