import { BLOCKED_AGENT_ENVIRONMENT_KEYS, BLOCKED_AGENT_ENVIRONMENT_PREFIXES, isBlockedAgentEnvironmentKey } from './agent-environment-keys';

describe('blocked agent env keys (one list: the gateway refuses them, the daemon drops them)', () => {
  it('blocks the listed keys and every key under a listed prefix, whatever the case', () => {
    for (const key of [...BLOCKED_AGENT_ENVIRONMENT_KEYS, ...BLOCKED_AGENT_ENVIRONMENT_PREFIXES.map((prefix) => `${prefix}ANYTHING`)]) {
      expect({ key, blocked: isBlockedAgentEnvironmentKey(key) }).toEqual({ key, blocked: true });
      expect({ key, blocked: isBlockedAgentEnvironmentKey(key.toLowerCase()) }).toEqual({ key, blocked: true });
    }
    expect(['PATH', 'LD_PRELOAD', 'Home', 'dyld_insert_libraries'].every(isBlockedAgentEnvironmentKey)).toBe(true);
  });

  it('lets ordinary variables through', () => {
    expect(['GITHUB_TOKEN', 'ANTHROPIC_API_KEY', 'LANG', 'PATHS', 'MY_PATH', 'NODE_ENV'].some(isBlockedAgentEnvironmentKey)).toBe(false);
  });
});
