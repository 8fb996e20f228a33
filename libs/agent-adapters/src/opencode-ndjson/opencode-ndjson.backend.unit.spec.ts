import { AGENT_RUN_ERROR_CODES } from '../run-errors/agent-run-error.codes';
import type { AgentRunResult } from '../backend/backend.types';
import { OPENCODE_DIALECTS, parseCliVersion, promptAsArguments } from './opencode-dialect';
import { buildOpenCodeLaunch, qualifyOpenCodeModel } from './opencode-ndjson.backend';
import { settleOpenCodeRun } from './opencode-run.settler';

const run = { cwd: '/work/task', env: { HOME: '/home/agent', PWD: '/somewhere/else' }, model: 'switchyard/mock-model' };

describe('OpenCode launch arguments', () => {
  it.each([
    ['1.18.33', true],
    ['1.2.1', true],
    ['v1.3.0', true],
    ['1.2.0', false],
    ['1.1.65', false],
    ['2.0.10', false],
    [undefined, false],
    ['custom build', false],
  ])('version %s passes --dir: %s', (cliVersion, passesDirectory) => {
    const launch = buildOpenCodeLaunch({ dialect: OPENCODE_DIALECTS.opencode, prompt: 'hi', run, ...(cliVersion !== undefined ? { cliVersion } : {}) });
    expect(launch.args.includes('--dir')).toBe(passesDirectory);
    // The safe default, and harmless with --dir: `run` reads its root from PWD before the cwd.
    expect(launch.env).toEqual({ HOME: '/home/agent', PWD: '/work/task' });
  });

  it('runs OpenCode with json events, skipped permissions, model, session, and the prompt kept off argv', () => {
    const launch = buildOpenCodeLaunch({ dialect: OPENCODE_DIALECTS.opencode, cliVersion: '1.18.33', prompt: 'secret prompt', run: { ...run, resumeSessionId: 'ses_1' } });
    expect(launch.args).toEqual([
      'run', '--format', 'json', '--dangerously-skip-permissions', '--dir', '/work/task', '--model', 'switchyard/mock-model', '--session', 'ses_1',
    ]);
  });

  it.each(['deveco', 'codearts'] as const)('gives %s the prompt on argv after --, never --dir', (dialect) => {
    const launch = buildOpenCodeLaunch({ dialect: OPENCODE_DIALECTS[dialect], cliVersion: '1.18.33', prompt: 'fix it --model x', run });
    expect(launch.args).toEqual(['run', '--format', 'json', '--dangerously-skip-permissions', '--model', 'switchyard/mock-model', '--', 'fix', 'it', '--model', 'x']);
  });

  it('splits an argv prompt so that run joins it back exactly', () => {
    const prompt = 'Say "quoted"  and --model multi\nline';
    const words = promptAsArguments(prompt).slice(1);
    expect(words.every((word) => !word.includes(' '))).toBe(true);
    expect(words.join(' ')).toBe(prompt);
  });

  it('reads versions the way `--version` prints them and nothing else', () => {
    expect(parseCliVersion('1.18.33')).toEqual({ major: 1, minor: 18, patch: 33 });
    expect(parseCliVersion('opencode v2.0.3\n')).toEqual({ major: 2, minor: 0, patch: 3 });
    expect(parseCliVersion('local')).toBeUndefined();
  });

  it('adds reasoning tokens apart only from OpenCode 1.3.16 on', () => {
    const apart = (version: string): boolean => OPENCODE_DIALECTS.opencode.separatesReasoningTokens(parseCliVersion(version));
    expect([apart('1.3.15'), apart('1.3.16'), apart('1.18.33'), apart('2.0.0')]).toEqual([false, true, true, false]);
  });
});

describe('qualifying the model for the CLI', () => {
  it('gives a bare id the configured provider and leaves a qualified one alone', () => {
    expect(qualifyOpenCodeModel('mock-model', 'switchyard')).toBe('switchyard/mock-model');
    expect(qualifyOpenCodeModel('openai/gpt-5', 'switchyard')).toBe('openai/gpt-5');
    expect(qualifyOpenCodeModel('mock-model', undefined)).toBe('mock-model');
    expect(qualifyOpenCodeModel(undefined, 'switchyard')).toBeUndefined();
  });
});

describe('settling an OpenCode run at exit', () => {
  const exitedWithoutResult: AgentRunResult = {
    status: 'failed',
    output: 'final answer',
    error: { code: AGENT_RUN_ERROR_CODES.cliExitedWithoutResult, message: 'the CLI exited without reporting a result', stderrTail: '' },
    durationMs: 10,
    sessionId: 'ses_1',
    usage: [],
    resumeRejected: false,
    toolRan: false,
    exitCode: 0,
    exitSignal: null,
    diagnostics: { malformedLines: 0, oversizedLines: 0, blankLines: 0, invalidMessages: 0 },
  };

  it('completes a clean exit after a finished last step', () => {
    const settled = settleOpenCodeRun(exitedWithoutResult, { finished: true });
    expect(settled.status).toBe('completed');
    expect(settled).not.toHaveProperty('error');
    expect(settled.output).toBe('final answer');
  });

  it('completes it even when some lines were unreadable, which stay counted', () => {
    const withNoise: AgentRunResult = {
      ...exitedWithoutResult,
      error: { ...exitedWithoutResult.error!, code: AGENT_RUN_ERROR_CODES.malformedOutput },
      diagnostics: { malformedLines: 1, oversizedLines: 0, blankLines: 0, invalidMessages: 0 },
    };
    expect(settleOpenCodeRun(withNoise, { finished: true })).toMatchObject({ status: 'completed', diagnostics: { malformedLines: 1 } });
  });

  it('keeps a clean exit without a finished step failed, saying why', () => {
    const settled = settleOpenCodeRun(exitedWithoutResult, { finished: false, reason: 'the CLI exited with a step still open' });
    expect(settled).toMatchObject({ status: 'failed', error: { code: 'cli_exited_without_result', message: 'the CLI exited without finishing the run: the CLI exited with a step still open' } });
  });

  it('leaves non-zero exits, cancels and rejected resumes as they are', () => {
    const nonZero = { ...exitedWithoutResult, exitCode: 1, error: { ...exitedWithoutResult.error!, code: AGENT_RUN_ERROR_CODES.cliExitedNonzero } };
    const cancelled = { ...exitedWithoutResult, status: 'cancelled' as const, exitCode: null, exitSignal: 'SIGTERM', error: { ...exitedWithoutResult.error!, code: AGENT_RUN_ERROR_CODES.cancelled } };
    const rejected = { ...exitedWithoutResult, exitCode: 1, resumeRejected: true, error: { ...exitedWithoutResult.error!, code: AGENT_RUN_ERROR_CODES.resumeRejected } };
    for (const result of [nonZero, cancelled, rejected]) expect(settleOpenCodeRun(result, { finished: true })).toBe(result);
  });
});
