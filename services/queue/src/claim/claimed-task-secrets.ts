import { resolveAgentSecrets, secretRefsOf, separateAgentSecrets, type AgentSecretValues, type AgentSnapshot } from '@switchyard/contracts';
import { sealToCurveKey } from '@switchyard/messaging';

/**
 * What a claim reply carries of the agent's secrets: the snapshot with references only, and the
 * values sealed to the claiming daemon's curve key. A snapshot enqueued before secrets were taken
 * out of events holds values in clear; they are taken out here too, so no reply carries one. A
 * reference whose bundle did not open (sealed under a key the queue no longer has) stays as it
 * is: the daemon finds no value for it and fails that run (`internal`, naming it).
 */
export function sealClaimedAgent(options: {
  readonly agent: AgentSnapshot;
  /** Every bundle value the claim could open. */
  readonly values: Readonly<AgentSecretValues>;
  readonly attemptRef: string;
  readonly sealingKey: string;
}): { readonly agent: AgentSnapshot; readonly sealedSecrets: string | null } {
  const unopened = Object.fromEntries(secretRefsOf(options.agent).filter((ref) => options.values[ref] === undefined).map((ref) => [ref, ref]));
  const { agent, values } = separateAgentSecrets(resolveAgentSecrets(options.agent, { ...options.values, ...unopened }), options.attemptRef);
  return { agent, sealedSecrets: Object.keys(values).length === 0 ? null : sealToCurveKey(options.sealingKey, JSON.stringify(values)) };
}
