import type { FailureEvidence } from './failure-evidence';
import { classifyProviderFailure, retryAfterMsOf } from './provider-failure.rules';

const evidence = (overrides: Partial<FailureEvidence>): FailureEvidence => ({ code: 'cli_reported_failure', message: '', stderrTail: '', errorTexts: [], exitCode: 1, ...overrides });

describe('shared provider failure rules', () => {
  it.each([
    ["This model's maximum context length is 128000 tokens. However, your messages resulted in 130542 tokens.", 'context_overflow'],
    ['400 {"error":{"code":"context_length_exceeded"}}', 'context_overflow'],
    ['Incorrect API key provided: sk-mock***', 'auth_failed'],
    ['HTTP 403 Forbidden', 'auth_failed'],
    ['Rate limit reached for mock-model. Please try again in 1s.', 'rate_limited'],
    ['status 429', 'rate_limited'],
    ['The server had an error while processing your request.', 'provider_error'],
    ['error: 503 Service Unavailable', 'provider_error'],
    ['request failed: ECONNRESET', 'provider_network'],
    ['Connection error.', 'provider_network'],
    ['Invalid request: invalid_request_error', 'invalid_request'],
    ['status code 400', 'invalid_request'],
    ["400 Invalid 'messages[2].tool_calls': empty array.", 'invalid_request'],
    ['[API Error: 401 Incorrect key]', 'auth_failed'],
  ] as const)('given the CLI said "%s", classifies it %s', (message, code) => {
    expect(classifyProviderFailure(evidence({ message }))?.code).toBe(code);
  });

  it('given a reason the adapter already named (a timeout, a rejected resume, a cancel), keeps it', () => {
    for (const code of ['idle_timeout', 'resume_rejected', 'cancelled', 'cli_not_found'] as const) {
      expect(classifyProviderFailure(evidence({ code, message: 'API Error: 429' }))).toBeUndefined();
    }
  });

  it('given nothing a provider would say, names no reason', () => {
    expect(classifyProviderFailure(evidence({ message: 'the CLI exited with code 1 without a result', stderrTail: 'Segmentation fault' }))).toBeUndefined();
  });

  it('given a stack trace on stderr, reads what the CLI said as its error first', () => {
    const failure = classifyProviderFailure(evidence({ message: 'failed: {"status":"INVALID_ARGUMENT"}', stderrTail: 'at node:internal/process/task_queues:95:5 status: 500' }));
    expect(failure?.code).toBe('invalid_request');
  });

  it('given only stderr says why, reads it there', () => {
    expect(classifyProviderFailure(evidence({ message: 'exit 1', stderrTail: 'Error: 401 Unauthorized' }))?.code).toBe('auth_failed');
  });

  it('given a rate limit with a retry hint, carries the wait; other reasons carry none', () => {
    expect(classifyProviderFailure(evidence({ message: 'Rate limit reached. Please try again in 1.2s.' }))).toMatchObject({ code: 'rate_limited', retryAfterMs: 1_200 });
    expect(classifyProviderFailure(evidence({ message: 'ECONNRESET, retry in 3s' }))).toMatchObject({ code: 'provider_network', retryAfterMs: null });
  });

  it('reads the retry hints the providers print', () => {
    expect(retryAfterMsOf(['{"retryDelay": "2s"}'])).toBe(2_000);
    expect(retryAfterMsOf(['Please try again in 450ms.'])).toBe(450);
    expect(retryAfterMsOf(['Suggested retry after 3 seconds.'])).toBe(3_000);
    expect(retryAfterMsOf(['try again later'])).toBeNull();
  });
});
