import { decideProviderFailure } from './provider-failure.decision';
import { parseScenarioMarkers } from './scenario-marker.parser';

const decide = (prompt: string, spent: readonly string[] = []) => decideProviderFailure(parseScenarioMarkers(prompt), new Set(spent));

describe('scripted provider failures', () => {
  it('given an error marker, fails with its status every time', () => {
    expect(decide('[[scenario:error 429]]', ['anything'])).toMatchObject({ kind: 'error', status: 429 });
  });

  it('given a context-overflow marker, fails with a 400 marked as an overflow', () => {
    expect(decide('[[scenario:context-overflow]]')).toMatchObject({ kind: 'error', status: 400, failure: 'context-overflow' });
  });

  it('given a reset marker, cuts the connection', () => {
    expect(decide('[[scenario:reset]]')).toMatchObject({ kind: 'error', failure: 'connection-reset' });
  });

  it('given an error-once marker whose key is not spent, fails once with the key to spend', () => {
    expect(decide('[[scenario:error-once 429 flaky-1]]')).toEqual({ kind: 'error', status: 429, message: expect.any(String), onceKey: 'flaky-1' });
    expect(decide('[[scenario:error-once context-overflow k]]')).toMatchObject({ failure: 'context-overflow', onceKey: 'k' });
    expect(decide('[[scenario:error-once reset k]]')).toMatchObject({ failure: 'connection-reset', onceKey: 'k' });
  });

  it('given an error-once marker whose key is spent, scripts no failure', () => {
    expect(decide('[[scenario:error-once 429 flaky-1]]', ['flaky-1'])).toBeUndefined();
  });

  it('ignores an error-once marker without a key, and a prompt without markers', () => {
    expect(parseScenarioMarkers('[[scenario:error-once 429]]')).toEqual([]);
    expect(decide('just work')).toBeUndefined();
  });

  it('parses the failure of an error-once marker', () => {
    expect(parseScenarioMarkers('[[scenario:error-once 503 a]] [[scenario:error-once 42 b]] [[scenario:error-once reset c]]')).toEqual([
      { name: 'error-once', failure: { kind: 'status', status: 503 }, key: 'a' },
      { name: 'error-once', failure: { kind: 'status', status: 500 }, key: 'b' },
      { name: 'error-once', failure: { kind: 'reset' }, key: 'c' },
    ]);
  });
});
