import type { RecordedRequest } from '@switchyard/testing';
import { collectRun, type CollectedRun } from '../backend/session-drain.spec-helper';
import { useMockModelWorkspace } from '../conformance/mock-model-workspace.spec-helper';
import { realCli } from '../conformance/real-cli.spec-helper';
import { createClaudeStreamJsonBackend } from './claude-stream-json.backend';

/** The agent's thinking level through the real Claude Code CLI, as the Messages API receives it. */
describe('Claude Code thinking level on the real CLI', () => {
  const workspace = useMockModelWorkspace('claude-thinking');
  const backend = createClaudeStreamJsonBackend();

  async function runWith(options: { readonly thinkingLevel: string; readonly model: string }): Promise<{ run: CollectedRun; requests: RecordedRequest[] }> {
    workspace.server.reset();
    const session = await backend.execute('hello [[scenario:text]]', {
      cwd: workspace.workDirectory,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: workspace.home,
        ANTHROPIC_BASE_URL: workspace.server.url,
        ANTHROPIC_API_KEY: 'sk-mock-not-a-secret',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        IS_SANDBOX: '1',
      },
      executable: realCli('claude'),
      model: options.model,
      thinkingLevel: options.thinkingLevel,
      timeouts: { idleMs: 60_000, totalMs: 120_000 },
    });
    const run = await collectRun(session);
    return { run, requests: workspace.server.requests().filter((request) => request.api === 'anthropic-messages') };
  }

  const bodyOf = (request: RecordedRequest): Record<string, unknown> => request.body as Record<string, unknown>;

  it('on a model with effort, "high" arrives as output_config.effort with adaptive thinking', async () => {
    const { run, requests } = await runWith({ thinkingLevel: 'high', model: 'claude-opus-4-6' });

    expect(run.result.status).toBe('completed');
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) expect(bodyOf(request)).toMatchObject({ output_config: { effort: 'high' }, thinking: { type: 'adaptive' } });
  });

  it('on a budget model, "low" arrives as a thinking budget', async () => {
    const { run, requests } = await runWith({ thinkingLevel: 'low', model: 'claude-sonnet-4-5' });

    expect(run.result.status).toBe('completed');
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) expect(bodyOf(request)['thinking']).toEqual({ type: 'enabled', budget_tokens: 4_000 });
  });

  it('"off" disables thinking', async () => {
    const { run, requests } = await runWith({ thinkingLevel: 'off', model: 'claude-sonnet-4-5' });

    expect(run.result.status).toBe('completed');
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) expect(bodyOf(request)['thinking']).toEqual({ type: 'disabled' });
  });

  it('an unknown level is not delivered, and the timeline says so first', async () => {
    const { run, requests } = await runWith({ thinkingLevel: 'galaxy-brain', model: 'claude-sonnet-4-5' });

    expect(run.result.status).toBe('completed');
    expect(run.messages[0]).toEqual({ type: 'log', level: 'warn', text: expect.stringContaining('thinking level "galaxy-brain" is not one of') as string });
    // The CLI's own default budget.
    for (const request of requests) expect(bodyOf(request)['thinking']).toEqual({ type: 'enabled', budget_tokens: 31_999 });
  });
});
