import type { AgentRunResult } from '@switchyard/agent-adapters/wing';
import { failureMessageOf, failureReasonOf } from './run-outcome.mapper';

const failed = (code: string, extra: { retryAfterMs?: number; status?: AgentRunResult['status'] } = {}): AgentRunResult =>
  ({
    status: extra.status ?? 'failed',
    output: '',
    durationMs: 10,
    usage: [],
    resumeRejected: false,
    toolRan: false,
    exitCode: 1,
    exitSignal: null,
    diagnostics: { malformedLines: 0, oversizedLines: 0, blankLines: 0, invalidMessages: 0 },
    error: { code, message: 'API Error: 429 rate limited', stderrTail: '', ...(extra.retryAfterMs !== undefined ? { retryAfterMs: extra.retryAfterMs } : {}) },
  }) as AgentRunResult;

describe('run outcome mapper', () => {
  it.each([
    ['provider_network', 'provider_network'],
    ['provider_error', 'provider_error'],
    ['rate_limited', 'rate_limited'],
    ['auth_failed', 'auth_failed'],
    ['invalid_request', 'invalid_request'],
    ['context_overflow', 'context_overflow'],
    ['resume_rejected', 'resume_rejected'],
    ['malformed_output', 'invalid_output'],
    ['cli_not_found', 'exec_env_failed'],
    ['cli_reported_failure', 'agent_error'],
    ['cli_exited_nonzero', 'agent_error'],
  ])('given a run failed with the adapter code %s, reports the reason %s', (code, reason) => {
    expect(failureReasonOf(failed(code))).toBe(reason);
  });

  it('given an aborted or timed-out run, reports shutdown or timeout whatever the code', () => {
    expect(failureReasonOf(failed('rate_limited', { status: 'aborted' }))).toBe('cancelled_by_shutdown');
    expect(failureReasonOf(failed('idle_timeout', { status: 'timeout' }))).toBe('timeout');
  });

  it('given a provider retry-after, carries it in the message for the queue', () => {
    expect(failureMessageOf(failed('rate_limited', { retryAfterMs: 1500 }))).toBe('API Error: 429 rate limited [retry_after_ms=1500]');
    expect(failureMessageOf(failed('rate_limited'))).toBe('API Error: 429 rate limited');
  });
});
