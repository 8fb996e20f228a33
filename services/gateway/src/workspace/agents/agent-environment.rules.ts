import { BLOCKED_AGENT_ENVIRONMENT_KEYS, BLOCKED_AGENT_ENVIRONMENT_PREFIXES, isBlockedAgentEnvironmentKey } from '@switchyard/contracts';
import { ApiError } from '../common/api-error';

const BLOCKED_RULE = `the daemon sets or withholds these itself (${BLOCKED_AGENT_ENVIRONMENT_KEYS.join(', ')}, and ${BLOCKED_AGENT_ENVIRONMENT_PREFIXES.map((prefix) => `${prefix}*`).join(', ')})`;

/**
 * Refuses an agent `env` that sets a key the daemon never passes to an agent's process (the
 * contracts' blocked list, shared with the daemon): refused when the agent is written, not found
 * out when a task runs. Keys compare case-insensitively, as the daemon compares them.
 */
export function assertAllowedAgentEnvironment(env: Readonly<Record<string, string>> | undefined): void {
  const blocked = Object.keys(env ?? {}).filter(isBlockedAgentEnvironmentKey);
  if (blocked.length === 0) return;
  throw new ApiError('blocked_environment_key', `env sets ${blocked.length === 1 ? 'a key' : 'keys'} an agent may not set: ${blocked.join(', ')}; ${BLOCKED_RULE}`, {
    keys: blocked,
    issues: blocked.map((key) => ({ path: `env.${key}`, message: 'an agent may not set this variable' })),
  });
}
