import type { ClaimedTask, JsonValue } from '@switchyard/contracts';
import { MIN_EXACT_SECRET_LENGTH, createMessageSanitizer, type MessageSanitizer } from '@switchyard/redaction';

/**
 * Values of this task that must never leave the machine in its timeline: the agent's env values,
 * the env and header values of its MCP servers, its repositories' credentials, and the task and
 * lease tokens. Values too short to match safely (`1`, `true`) are left out.
 */
export function taskSecretsOf(task: ClaimedTask): string[] {
  const credentials = task.agent.repositories.flatMap((repository) => (repository.credential ? [repository.credential.secret] : []));
  const values = [...Object.values(task.agent.env), ...mcpSecretValues(task.agent.mcpConfig), ...credentials, task.taskToken, task.leaseToken];
  return [...new Set(values)].filter((value) => value.length >= MIN_EXACT_SECRET_LENGTH);
}

/** The string values of every `env` and `headers` object in an MCP config, at any depth (each family nests servers its own way). */
function mcpSecretValues(config: JsonValue | null): string[] {
  if (config === null || typeof config !== 'object') return [];
  if (Array.isArray(config)) return config.flatMap(mcpSecretValues);
  return Object.entries(config).flatMap(([key, value]) => {
    if ((key === 'env' || key === 'headers') && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return Object.values(value).filter((entry): entry is string => typeof entry === 'string');
    }
    return mcpSecretValues(value ?? null);
  });
}

/** Redacts, cleans and caps every message of the task before it enters the outbox. */
export function taskMessageSanitizer(task: ClaimedTask): MessageSanitizer {
  return createMessageSanitizer({ exactSecrets: taskSecretsOf(task) });
}
