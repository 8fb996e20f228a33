import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentRunResult } from '../backend/backend.types';
import { antigravityPrintTimeout, buildAntigravityArgs } from './antigravity-json.backend';
import { antigravityOutputMode } from './antigravity-cli.version';
import { parseAntigravityLog, settleAntigravityRun, type AntigravityLogFacts } from './antigravity-log.reader';

const fixture = (name: string): string => readFileSync(path.join(__dirname, '__fixtures__', name), 'utf8');
const CONVERSATION = 'c0ffee00-0000-4000-8000-000000000001';

/** A clean exit 0 without a result event, as the session reports every plain-text run. */
const exitedWithoutResult: AgentRunResult = {
  status: 'failed',
  output: 'There is one file: README.md.',
  error: { code: 'cli_exited_without_result', message: 'the CLI exited without reporting a result', stderrTail: '' },
  durationMs: 10,
  usage: [],
  resumeRejected: false,
  toolRan: false,
  exitCode: 0,
  exitSignal: null,
  diagnostics: { malformedLines: 0, oversizedLines: 0, blankLines: 1, invalidMessages: 0 },
};
const quietLog: AntigravityLogFacts = { conversationId: CONVERSATION, printTimedOut: false };
const settle = (result: AgentRunResult, log: AntigravityLogFacts, mode: 'text' | 'stream-json' = 'text'): AgentRunResult =>
  settleAntigravityRun({ result, log, mode, printTimeout: '300s', stdoutText: 'I will list the files.\nThere is one file: README.md.' });

describe('agy log file', () => {
  it('finds the conversation of the run', () => {
    expect(parseAntigravityLog(fixture('print-mode.log'))).toEqual({ conversationId: CONVERSATION, printTimedOut: false });
  });

  it('finds agy’s own print timeout and a provider error', () => {
    expect(parseAntigravityLog(fixture('print-timeout.log'))).toMatchObject({ conversationId: CONVERSATION, printTimedOut: true });
    expect(parseAntigravityLog(fixture('provider-error.log')).providerError).toBe('RESOURCE_EXHAUSTED: quota exceeded for model gemini-3.7-pro-high');
  });

  it('finds nothing in an empty or missing log', () => {
    expect(parseAntigravityLog('')).toEqual({ printTimedOut: false });
  });
});

describe('settling an agy run', () => {
  it('completes a plain-text run that exited 0, with all of stdout and the conversation from the log', () => {
    const settled = settle(exitedWithoutResult, quietLog);
    expect(settled).toMatchObject({ status: 'completed', output: 'I will list the files.\nThere is one file: README.md.', sessionId: CONVERSATION });
    expect(settled.error).toBeUndefined();
  });

  it('turns agy’s print timeout into a timeout and a logged provider error into a failure', () => {
    expect(settle(exitedWithoutResult, { ...quietLog, printTimedOut: true })).toMatchObject({
      status: 'timeout',
      error: { code: 'total_timeout', message: "agy's --print-timeout (300s) ran out before the agent answered" },
    });
    expect(settle(exitedWithoutResult, { ...quietLog, providerError: 'quota exceeded' })).toMatchObject({
      status: 'failed',
      error: { code: 'cli_reported_failure', message: 'agy provider error: quota exceeded' },
    });
  });

  it('keeps a stream-json run without its result event failed, and any other outcome as it was', () => {
    expect(settle(exitedWithoutResult, quietLog, 'stream-json')).toMatchObject({ status: 'failed', sessionId: CONVERSATION, error: { code: 'cli_exited_without_result' } });
    const nonZero: AgentRunResult = { ...exitedWithoutResult, exitCode: 3, error: { code: 'cli_exited_nonzero', message: 'the CLI exited with code 3 without a result', stderrTail: 'auth' } };
    expect(settle(nonZero, quietLog)).toEqual({ ...nonZero, sessionId: CONVERSATION });
  });

  it('keeps the session the stream announced over the one in the log', () => {
    expect(settle({ ...exitedWithoutResult, sessionId: 'from-stream' }, quietLog).sessionId).toBe('from-stream');
  });
});

describe('agy version and arguments', () => {
  it('uses stream JSON from 1.1.8 on and plain text before or when the version is unknown', () => {
    expect(antigravityOutputMode('1.1.8')).toBe('stream-json');
    expect(antigravityOutputMode('agy version 1.1.27 (darwin/arm64)')).toBe('stream-json');
    expect(antigravityOutputMode('2.0.0')).toBe('stream-json');
    expect(antigravityOutputMode('1.1.7')).toBe('text');
    expect(antigravityOutputMode('1.0.14')).toBe('text');
    expect(antigravityOutputMode(undefined)).toBe('text');
    expect(antigravityOutputMode('nightly')).toBe('text');
  });

  it('always passes --print-timeout, from the run’s total budget', () => {
    expect(antigravityPrintTimeout(90_500)).toBe('91s');
    expect(antigravityPrintTimeout(undefined)).toBe('14400s');
    expect(antigravityPrintTimeout(0)).toBe('86400s');
  });

  it('puts the prompt last, as the value of -p, and the daemon-owned flags before it', () => {
    expect(
      buildAntigravityArgs({ prompt: '--help me', mode: 'stream-json', logFile: '/tmp/a.log', printTimeout: '60s', cwd: '/work', model: 'Gemini 3.7 Pro (High)', resumeSessionId: CONVERSATION }),
    ).toEqual([
      '--dangerously-skip-permissions',
      '--output-format',
      'stream-json',
      '--model',
      'Gemini 3.7 Pro (High)',
      '--print-timeout',
      '60s',
      '--log-file',
      '/tmp/a.log',
      '--conversation',
      CONVERSATION,
      '--add-dir',
      '/work',
      '-p',
      '--help me',
    ]);
    expect(buildAntigravityArgs({ prompt: 'hi', mode: 'text', logFile: '/tmp/a.log', printTimeout: '60s', cwd: '/work' })).toEqual([
      '--dangerously-skip-permissions',
      '--print-timeout',
      '60s',
      '--log-file',
      '/tmp/a.log',
      '--add-dir',
      '/work',
      '-p',
      'hi',
    ]);
  });
});
