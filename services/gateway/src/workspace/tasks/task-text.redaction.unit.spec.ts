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

  it('takes the repositories’ credential secrets too, and reads a snapshot from before repositories', () => {
    const repository = { name: 'web', checkoutMode: 'worktree' as const, url: 'https://git.example.com/web.git', localPath: null, defaultBranch: 'main', branchTemplate: 'switchyard/{source}/{task}', checkoutAtStart: true };
    const agent = sampleAgentSnapshot({
      env: { API_KEY: 'agent-env-value' },
      repositories: [{ ...repository, credential: { kind: 'https_token', username: 'bot', secret: 'repository-token-value' } }, { ...repository, name: 'api', credential: null }],
    });
    expect(agentSecretValues(agent).sort()).toEqual(['agent-env-value', 'repository-token-value']);
    expect(taskTextRedactor(agent)('push with repository-token-value as bot')).toBe('push with [REDACTED:known_secret] as bot');
    expect(agentSecretValues({ env: { API_KEY: 'v' }, mcpConfig: null })).toEqual(['v']);
  });

  it('redacts those values and every secret pattern; without a snapshot, the patterns still', () => {
    const agent = sampleAgentSnapshot({ env: { API_KEY: 'agent-env-value', DEBUG: 'true' } });
    const text = 'key agent-env-value, token ghp_0123456789abcdefghijABCDEFGHIJ012345, debug true';
    expect(taskTextRedactor(agent)(text)).toBe('key [REDACTED:known_secret], token [REDACTED:github_token], debug true');
    expect(taskTextRedactor()(text)).toBe('key agent-env-value, token [REDACTED:github_token], debug true');
  });
});
