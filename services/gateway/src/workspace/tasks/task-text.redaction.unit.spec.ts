import { sampleAgentSnapshot } from '@switchyard/testing';
import { agentSecretValues, taskTextRedactor } from './task-text.redaction';

describe('task text redaction', () => {
  it('takes the agent’s env values and its MCP servers’ env and header values as its secrets', () => {
    const agent = sampleAgentSnapshot({
      env: { API_KEY: 'agent-env-value' },
      mcpConfig: { servers: { github: { command: 'github-mcp', env: { GITHUB_PAT: 'mcp-env-value' } }, docs: { url: 'https://docs.example', headers: { authorization: 'mcp-header-value' } } } },
    });
    expect(agentSecretValues(agent).sort()).toEqual(['agent-env-value', 'mcp-env-value', 'mcp-header-value']);
    expect(agentSecretValues(sampleAgentSnapshot({ mcpConfig: { servers: 'not an object' } }))).toEqual([]);
  });

  it('redacts those values and every secret pattern; without a snapshot, the patterns still', () => {
    const agent = sampleAgentSnapshot({ env: { API_KEY: 'agent-env-value', DEBUG: 'true' } });
    const text = 'key agent-env-value, token ghp_0123456789abcdefghijABCDEFGHIJ012345, debug true';
    expect(taskTextRedactor(agent)(text)).toBe('key [REDACTED:known_secret], token [REDACTED:github_token], debug true');
    expect(taskTextRedactor()(text)).toBe('key agent-env-value, token [REDACTED:github_token], debug true');
  });
});
