import { bundleIdOfSecretRef, resolveAgentSecrets, secretRefsOf, separateAgentSecrets, MissingSecretError } from './agent-secret-refs';
import type { AgentSnapshot } from './agent-snapshot.schema';

const agent: AgentSnapshot = {
  name: 'coder',
  instructions: 'be brief',
  model: null,
  thinkingLevel: null,
  skills: ['review'],
  skillVersions: [],
  env: { OPENAI_API_KEY: 'sk-live-1', LOG_LEVEL: 'debug' },
  extraArgs: ['--verbose'],
  mcpConfig: {
    servers: {
      github: { command: 'gh-mcp', args: ['--stdio'], env: { GITHUB_TOKEN: 'ghp-2' } },
      docs: { url: 'https://docs.example/mcp', headers: { Authorization: 'Bearer 3' } },
    },
  },
  maxConcurrentTasks: 2,
  repositories: [],
};

describe('agent secret references', () => {
  it('take out every env value and every MCP env and header value, and nothing else', () => {
    const { agent: referenced, values } = separateAgentSecrets(agent, 'bundle-1');

    expect(Object.values(values).sort()).toEqual(['Bearer 3', 'debug', 'ghp-2', 'sk-live-1']);
    expect(JSON.stringify(referenced)).not.toMatch(/sk-live-1|ghp-2|Bearer 3|debug/);
    expect(referenced.mcpConfig).toMatchObject({ servers: { github: { command: 'gh-mcp', args: ['--stdio'] }, docs: { url: 'https://docs.example/mcp' } } });
    expect(referenced.extraArgs).toEqual(['--verbose']);
    expect(secretRefsOf(referenced).map(bundleIdOfSecretRef)).toEqual(['bundle-1', 'bundle-1', 'bundle-1', 'bundle-1']);
  });

  it('put the values back where they were', () => {
    const { agent: referenced, values } = separateAgentSecrets(agent, 'bundle-1');

    expect(resolveAgentSecrets(referenced, values)).toEqual(agent);
  });

  it('keep references already in place, so a retry points at its first run’s bundle', () => {
    const first = separateAgentSecrets(agent, 'bundle-1');
    const again = separateAgentSecrets(first.agent, 'bundle-2');

    expect(again.agent).toEqual(first.agent);
    expect(again.values).toEqual({});
  });

  it('take out each repository credential\'s secret, never its username or URL, and put it back', () => {
    const withRepository: AgentSnapshot = {
      ...agent,
      repositories: [
        {
          name: 'api',
          checkoutMode: 'worktree',
          url: 'https://git.example/api.git',
          localPath: null,
          defaultBranch: 'main',
          branchTemplate: 'switchyard/{source}/{task}',
          credential: { kind: 'https_token', username: 'x-access-token', secret: 'ghp-repo-4' },
          checkoutAtStart: true,
        },
      ],
    };
    const { agent: referenced, values } = separateAgentSecrets(withRepository, 'bundle-1');

    expect(Object.values(values)).toContain('ghp-repo-4');
    expect(JSON.stringify(referenced)).not.toContain('ghp-repo-4');
    expect(referenced.repositories[0]).toMatchObject({ url: 'https://git.example/api.git', credential: { username: 'x-access-token' } });
    expect(resolveAgentSecrets(referenced, values)).toEqual(withRepository);
  });

  it('refuse to resolve a reference without its value', () => {
    const { agent: referenced } = separateAgentSecrets(agent, 'bundle-1');

    expect(() => resolveAgentSecrets(referenced, {})).toThrow(MissingSecretError);
  });
});
