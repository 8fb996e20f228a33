import type { AgentProcessExit } from '../runner/agent-process.runner';
import { assembleRunResult, type RunFacts } from './run-result.assembler';

const facts = (overrides: Partial<RunFacts> = {}): RunFacts => ({
  usageByModel: new Map(),
  resumeRejected: false,
  toolRan: false,
  diagnostics: { malformedLines: 0, oversizedLines: 0, blankLines: 0, invalidMessages: 0 },
  ...overrides,
});
const exit = (overrides: Partial<AgentProcessExit> = {}): AgentProcessExit => ({ exitCode: 0, signal: null, stderrTail: 'tail', ...overrides });

describe('run result assembly', () => {
  it('given a completed result and a kill on the way out, then the run is completed', () => {
    const result = assembleRunResult({ facts: facts({ result: { status: 'completed', output: 'ok' } }), exit: exit({ exitCode: null, signal: 'SIGKILL' }), durationMs: 5 });
    expect(result).toMatchObject({ status: 'completed', output: 'ok', exitSignal: 'SIGKILL' });
    expect(result.error).toBeUndefined();
  });

  it('given no reported output, then the last text message stands in', () => {
    expect(assembleRunResult({ facts: facts({ result: { status: 'completed' }, lastText: 'last words' }), exit: exit(), durationMs: 1 }).output).toBe('last words');
  });

  it('given messages outside the contract but a completed result, then the run is completed and they stay counted', () => {
    const result = assembleRunResult({ facts: facts({ result: { status: 'completed' }, diagnostics: { malformedLines: 0, oversizedLines: 0, blankLines: 0, invalidMessages: 3 } }), exit: exit(), durationMs: 1 });
    expect(result).toMatchObject({ status: 'completed', diagnostics: { invalidMessages: 3 } });
  });

  it.each([
    [{ endedBy: 'cancel' } as const, {}, 'cancelled', 'cancelled'],
    [{ endedBy: 'abort' } as const, {}, 'aborted', 'aborted'],
    [{ endedBy: 'idle_timeout' } as const, {}, 'timeout', 'idle_timeout'],
    [{}, { spawnError: { code: 'cli_not_found', message: 'missing' } } as const, 'failed', 'cli_not_found'],
    [{ resumeRejected: true }, { exitCode: 1 }, 'failed', 'resume_rejected'],
    [{ result: { status: 'failed', errorMessage: 'rate limited' } } as const, { exitCode: 1 }, 'failed', 'cli_reported_failure'],
    [{}, { exitCode: 2 }, 'failed', 'cli_exited_nonzero'],
    [{}, { exitCode: null, signal: 'SIGSEGV' }, 'failed', 'cli_exited_nonzero'],
    [{ diagnostics: { malformedLines: 0, oversizedLines: 1, blankLines: 0, invalidMessages: 0 } }, {}, 'failed', 'output_line_too_long'],
    [{ diagnostics: { malformedLines: 2, oversizedLines: 0, blankLines: 0, invalidMessages: 0 } }, {}, 'failed', 'malformed_output'],
    [{ diagnostics: { malformedLines: 0, oversizedLines: 0, blankLines: 0, invalidMessages: 1 } }, {}, 'failed', 'malformed_output'],
    [{}, {}, 'failed', 'cli_exited_without_result'],
  ])('given facts %j and exit %j, then %s with %s', (factOverrides, exitOverrides, status, code) => {
    const result = assembleRunResult({ facts: facts(factOverrides), exit: exit(exitOverrides), durationMs: 1 });
    expect(result).toMatchObject({ status, error: { code, stderrTail: 'tail' } });
  });
});
