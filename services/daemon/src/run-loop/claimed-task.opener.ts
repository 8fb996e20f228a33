import { resolveAgentSecrets, type AgentSecretValues, type ClaimedTask } from '@switchyard/contracts';
import type { CurveKeyHolder } from '@switchyard/messaging';

/**
 * The claimed task as the run needs it: the agent's secret values, sealed to this daemon's curve
 * key by the queue, put back in place of their references. Throws when the box does not open or
 * a reference has no value: the run then fails instead of starting an agent without its secrets.
 */
export function openClaimedTask(task: ClaimedTask, sealingKey: CurveKeyHolder): ClaimedTask {
  const values = task.sealedSecrets === null ? {} : (JSON.parse(sealingKey.open(task.sealedSecrets)) as AgentSecretValues);
  return { ...task, agent: resolveAgentSecrets(task.agent, values), sealedSecrets: null };
}
