import { isSecretRef, type AgentSnapshot, type JsonValue } from '@switchyard/contracts';
import { createRedactor, type Redactor } from '@switchyard/redaction';

const stringValuesOf = (value: JsonValue | undefined): string[] =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.values(value).filter((entry): entry is string => typeof entry === 'string') : [];

/**
 * The values of a task's agent snapshot that are secret: its env values (what the daemon redacts
 * from the timeline, with the task token) and, since the API masks them too, its MCP servers' env
 * and header values. The task token is minted at claim, after the prompt was written.
 */
export function agentSecretValues(agent: Pick<AgentSnapshot, 'env' | 'mcpConfig'>): string[] {
  const servers = agent.mcpConfig && typeof agent.mcpConfig === 'object' && !Array.isArray(agent.mcpConfig) ? agent.mcpConfig['servers'] : undefined;
  const serverList = servers && typeof servers === 'object' && !Array.isArray(servers) ? Object.values(servers) : [];
  const serverSecrets = serverList.flatMap((server) =>
    typeof server === 'object' && server !== null && !Array.isArray(server) ? [...stringValuesOf(server['env']), ...stringValuesOf(server['headers'])] : [],
  );
  return [...Object.values(agent.env), ...serverSecrets];
}

/**
 * How task text (prompt, failure message, final output) is redacted before a client reads it: the
 * timeline's redaction (`@switchyard/redaction` secret patterns) plus the task's own secret values
 * as exact secrets, as the daemon redacts the timeline. Build once per task, call per string.
 */
export function taskTextRedactor(...agents: ReadonlyArray<Pick<AgentSnapshot, 'env' | 'mcpConfig'>>): Redactor {
  return createRedactor({ exactSecrets: agents.flatMap((agent) => agentSecretValues(agent).filter((value) => !isSecretRef(value))) });
}
