import type { AgentMessage } from '@switchyard/contracts';
import type { AgentRunResult, AgentSession, Backend } from '../backend/backend.types';
import { collectRun } from '../backend/session-drain.spec-helper';
import { withFailureClassification } from './failure-classifying.backend';
import { PROMPT_UNDELIVERED_NOTE } from '../backend/adapter-notes';
import { classifyProviderFailure } from './provider-failure.rules';

const finished = (overrides: Partial<AgentRunResult>): AgentRunResult => ({
  status: 'failed',
  output: '',
  durationMs: 5,
  usage: [],
  resumeRejected: false,
  toolRan: false,
  exitCode: 1,
  exitSignal: null,
  diagnostics: { malformedLines: 0, oversizedLines: 0, blankLines: 0, invalidMessages: 0 },
  error: { code: 'cli_exited_nonzero', message: 'the CLI exited with code 1 without a result', stderrTail: '' },
  ...overrides,
});

/** A backend whose one run streams these messages and ends so. */
function scriptedBackend(messages: AgentMessage[], result: AgentRunResult): Backend {
  return {
    execute: () => {
      async function* stream(): AsyncGenerator<AgentMessage> {
        for (const message of messages) yield await Promise.resolve(message);
      }
      const session: AgentSession = { messages: stream(), result: Promise.resolve(result), cancel: () => Promise.resolve() };
      return Promise.resolve(session);
    },
  };
}

const run = async (backend: Backend, failedOutput?: RegExp) =>
  collectRun(await withFailureClassification(backend, { classify: classifyProviderFailure, ...(failedOutput ? { failedOutput } : {}) }).execute('go', { cwd: '/', env: {}, executable: 'cli' }));

describe('a backend with failure classification', () => {
  it('given a failed run that streamed the provider error, gives the result its reason, wait and clue', async () => {
    const streamed: AgentMessage = { type: 'error', code: 'api_error', message: 'Rate limit reached. Please try again in 2s.' };
    const { messages, result } = await run(scriptedBackend([streamed], finished({})));
    expect(messages).toEqual([streamed]);
    expect(result.error).toEqual({
      code: 'rate_limited',
      message: 'the CLI exited with code 1 without a result (api_error: Rate limit reached. Please try again in 2s.)',
      stderrTail: '',
      retryAfterMs: 2_000,
    });
  });

  it('given a completed run, or a failure no rule knows, leaves the result as it was', async () => {
    const completed = finished({ status: 'completed', exitCode: 0 });
    delete (completed as { error?: unknown }).error;
    expect((await run(scriptedBackend([], completed))).result).toEqual(completed);
    const unknown = finished({});
    expect((await run(scriptedBackend([{ type: 'error', code: 'x', message: 'disk full' }], unknown))).result).toEqual(unknown);
  });

  it('given a CLI that died before reading its prompt, does not take our broken pipe for a provider network error', async () => {
    const exited = finished({ exitCode: 127, error: { code: 'cli_exited_nonzero', message: 'the CLI exited with code 127 without a result', stderrTail: 'node-helper: command not found' } });
    const note: AgentMessage = { type: 'log', level: 'warn', text: `${PROMPT_UNDELIVERED_NOTE}: write EPIPE` };
    expect((await run(scriptedBackend([note], exited))).result).toEqual(exited);
  });

  it('given a "completed" run whose answer is the CLI\'s error report, fails it with the provider\'s reason', async () => {
    const masked = finished({ status: 'completed', exitCode: 0, output: '[API Error: 429 Rate limit reached for mock-model. Please try again in 1s.]' });
    delete (masked as { error?: unknown }).error;
    const { result } = await run(scriptedBackend([], masked), /^\[API Error: /);
    expect(result).toMatchObject({ status: 'failed', error: { code: 'rate_limited', retryAfterMs: 1_000 } });
    expect((await run(scriptedBackend([], { ...masked, output: 'All done.' }), /^\[API Error: /)).result.status).toBe('completed');
  });
});
