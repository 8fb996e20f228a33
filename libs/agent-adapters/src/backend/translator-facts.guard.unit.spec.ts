import type { TokenUsage } from '@switchyard/contracts';
import { guardSessionId, guardTokenUsage, guardTranslatorResult } from './translator-facts.guard';
import type { TranslatorResult } from './translator.types';

describe('translator facts guard', () => {
  it('given a session id that is a non-empty string, then it is kept', () => {
    expect(guardSessionId('session-1')).toEqual({ kind: 'valid', value: 'session-1' });
  });

  it.each([
    [99, 'the session id is a number, not a string'],
    [null, 'the session id is null, not a string'],
    ['', 'the session id is empty'],
  ])('given the session id %j, then it is refused: %s', (candidate, problem) => {
    expect(guardSessionId(candidate as string)).toEqual({ kind: 'invalid', problem });
  });

  it('given usage inside the contract, then it is kept', () => {
    const usage: TokenUsage = { provider: 'fault', model: 'model-a', inputTokens: 3, outputTokens: 2, cacheReadTokens: 1 };
    expect(guardTokenUsage(usage)).toEqual({ kind: 'valid', value: usage });
  });

  it.each([
    [{ model: 'model-a', inputTokens: 'many', outputTokens: 0 }, 'inputTokens: '],
    [{ model: 11, inputTokens: 1, outputTokens: 0 }, 'model: '],
    [{ model: 'model-a', inputTokens: 1, outputTokens: -1 }, 'outputTokens: '],
  ])('given the usage %j, then it is refused, naming %s', (candidate, field) => {
    expect(guardTokenUsage(candidate as TokenUsage)).toEqual({ kind: 'invalid', problem: expect.stringContaining(field) });
  });

  it('given a result with text fields, then it is kept as it is', () => {
    const result: TranslatorResult = { status: 'failed', errorMessage: 'rate limited', errorCode: 'cli_reported_failure' };
    expect(guardTranslatorResult(result)).toEqual({ result, problems: [] });
  });

  it('given a result whose output and error message are not text, then both are dropped and named', () => {
    const candidate = { status: 'failed', output: 42, errorMessage: { text: 'x' }, errorCode: 'cli_reported_failure' } as unknown as TranslatorResult;
    expect(guardTranslatorResult(candidate)).toEqual({
      result: { status: 'failed', errorCode: 'cli_reported_failure' },
      problems: ['output: a number, not a string', 'errorMessage: an object, not a string'],
    });
  });
});
