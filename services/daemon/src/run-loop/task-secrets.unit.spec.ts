import { agentMessageSchema } from '@switchyard/contracts';
import { sampleAgentSnapshot } from '@switchyard/testing';
import { sampleClaimedTask } from '../exec-env/exec-env.spec-helper';
import { taskMessageSanitizer, taskSecretsOf } from './task-secrets';

describe('task secrets', () => {
  const task = sampleClaimedTask({
    agent: sampleAgentSnapshot({ env: { INTERNAL_API_KEY: 'int-8f3a9c2e1b7d', DEBUG: '1', REGION: 'eu-west', SAME_KEY: 'int-8f3a9c2e1b7d' } }),
    taskToken: 'stt_0190f3a2-token-value',
    leaseToken: 'lease-0190f3a2-value',
  });

  it('are the agent env values and the task and lease tokens, long enough to match safely, once each', () => {
    expect(taskSecretsOf(task)).toEqual(['int-8f3a9c2e1b7d', 'stt_0190f3a2-token-value', 'lease-0190f3a2-value']);
  });

  it('include the env and header values of the agent’s MCP servers, however the config nests them', () => {
    const withMcp = sampleClaimedTask({
      agent: sampleAgentSnapshot({
        mcpConfig: {
          mcpServers: {
            docs: { command: 'docs-mcp', args: ['--verbose-flag-value'], env: { DOCS_TOKEN: 'docs-0190f3a2-secret' } },
            search: { url: 'https://search.example/mcp', headers: { Authorization: 'Bearer search-0190f3a2-secret' } },
          },
        },
      }),
      taskToken: 'stt_0190f3a2-token-value',
      leaseToken: 'lease-0190f3a2-value',
    });
    expect(taskSecretsOf(withMcp)).toEqual(['docs-0190f3a2-secret', 'Bearer search-0190f3a2-secret', 'stt_0190f3a2-token-value', 'lease-0190f3a2-value']);
  });

  it('include the credential of each repository the task may check out', () => {
    const repository = {
      name: 'api',
      checkoutMode: 'worktree',
      url: 'https://git.example/api.git',
      localPath: null,
      defaultBranch: 'main',
      branchTemplate: 'switchyard/{source}/{task}',
      checkoutAtStart: true,
    } as const;
    const withRepositories = sampleClaimedTask({
      agent: sampleAgentSnapshot({
        repositories: [
          { ...repository, credential: { kind: 'https_token', username: 'x-access-token', secret: 'ghp-0190f3a2-repo-secret' } },
          { ...repository, name: 'docs', credential: null },
        ],
      }),
      taskToken: 'stt_0190f3a2-token-value',
      leaseToken: 'lease-0190f3a2-value',
    });
    expect(taskSecretsOf(withRepositories)).toEqual(['ghp-0190f3a2-repo-secret', 'stt_0190f3a2-token-value', 'lease-0190f3a2-value']);
  });

  it('never reach the outbox: every message is redacted before it is enqueued', () => {
    // Given the sanitizer the run loop uses for this task
    const sanitize = taskMessageSanitizer(task);
    // When the CLI prints the env value and the token (and an ordinary short value)
    const message = sanitize({ type: 'tool-result', callId: 'call-1', output: 'INTERNAL_API_KEY int-8f3a9c2e1b7d token stt_0190f3a2-token-value region eu-west', status: 'ok' });
    // Then both secrets are gone, short values stay readable, and the message is still valid
    expect(message).toEqual({ type: 'tool-result', callId: 'call-1', output: 'INTERNAL_API_KEY [REDACTED:known_secret] token [REDACTED:known_secret] region eu-west', status: 'ok' });
    expect(agentMessageSchema.safeParse(message).success).toBe(true);
  });
});
