import { isSecretRef, type AgentSnapshot, type JsonValue, type RepositoryCredential } from '@switchyard/contracts';
import { createRedactor, type Redactor } from '@switchyard/redaction';

const stringValuesOf = (value: JsonValue | undefined): string[] =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.values(value).filter((entry): entry is string => typeof entry === 'string') : [];

/** The parts of an agent snapshot that hold secrets; `repositories` may be absent (a snapshot from before them). */
export type SnapshotSecrets = Pick<AgentSnapshot, 'env' | 'mcpConfig'> & { readonly repositories?: ReadonlyArray<{ readonly credential: Pick<RepositoryCredential, 'secret'> | null }> };

/**
 * The values of a task's agent snapshot that are secret: its env values (what the daemon redacts
 * from the timeline, with the task token), since the API masks them too its MCP servers' env and
 * header values, and its repositories' credential secrets. The task token is minted at claim,
 * after the prompt was written.
 */
export function agentSecretValues(agent: SnapshotSecrets): string[] {
  const servers = agent.mcpConfig && typeof agent.mcpConfig === 'object' && !Array.isArray(agent.mcpConfig) ? agent.mcpConfig['servers'] : undefined;
  const serverList = servers && typeof servers === 'object' && !Array.isArray(servers) ? Object.values(servers) : [];
  const serverSecrets = serverList.flatMap((server) =>
    typeof server === 'object' && server !== null && !Array.isArray(server) ? [...stringValuesOf(server['env']), ...stringValuesOf(server['headers'])] : [],
  );
  const credentialSecrets = (agent.repositories ?? []).flatMap((repository) => (repository.credential ? [repository.credential.secret] : []));
  return [...Object.values(agent.env), ...serverSecrets, ...credentialSecrets];
}

/**
 * How task text (prompt, failure message, final output) is redacted before a client reads it: the
 * timeline's redaction (`@switchyard/redaction` secret patterns) plus the task's own secret values
 * as exact secrets, as the daemon redacts the timeline. Build once per task, call per string.
 */
export function taskTextRedactor(...agents: readonly SnapshotSecrets[]): Redactor {
  return createRedactor({ exactSecrets: agents.flatMap((agent) => agentSecretValues(agent).filter((value) => !isSecretRef(value))) });
}
