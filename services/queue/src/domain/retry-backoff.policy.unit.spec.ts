import { providerRetryAfterMsOf, retryAtOf, retryDelayMs } from './retry-backoff.policy';

const settings = { baseMs: 1_000, maxMs: 60_000 };
const lowest = () => 0;
const highest = () => 0.999_999;

describe('retry backoff', () => {
  it('given the first failure of a chain, waits between half the base and the base', () => {
    expect(retryDelayMs(settings, { priorRetries: 0, providerRetryAfterMs: null, random: lowest })).toBe(500);
    expect(retryDelayMs(settings, { priorRetries: 0, providerRetryAfterMs: null, random: highest })).toBe(1_000);
  });

  it('given more retries in the chain, doubles the delay each time', () => {
    const delays = [0, 1, 2, 3].map((priorRetries) => retryDelayMs(settings, { priorRetries, providerRetryAfterMs: null, random: highest }));
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000]);
  });

  it('given many retries, never waits past the cap', () => {
    expect(retryDelayMs(settings, { priorRetries: 50, providerRetryAfterMs: null, random: highest })).toBe(60_000);
    expect(retryDelayMs(settings, { priorRetries: 50, providerRetryAfterMs: null, random: lowest })).toBe(30_000);
  });

  it('given a provider retry-after longer than the backoff, waits for it', () => {
    expect(retryDelayMs(settings, { priorRetries: 0, providerRetryAfterMs: 7_000, random: highest })).toBe(7_000);
  });

  it('given a provider retry-after shorter than the backoff, keeps the backoff', () => {
    expect(retryDelayMs(settings, { priorRetries: 3, providerRetryAfterMs: 100, random: lowest })).toBe(4_000);
  });

  it('given a provider retry-after past the cap, waits only the cap', () => {
    expect(retryDelayMs(settings, { priorRetries: 0, providerRetryAfterMs: 3_600_000, random: lowest })).toBe(60_000);
  });

  it('when asked for the time, adds the delay to now', () => {
    expect(retryAtOf(settings, { priorRetries: 1, providerRetryAfterMs: null, random: highest, now: new Date('2026-01-01T00:00:00.000Z') })).toBe('2026-01-01T00:00:02.000Z');
  });

  it('reads the retry-after the daemon put in the failure message, and nothing else', () => {
    expect(providerRetryAfterMsOf('API Error: 429 [retry_after_ms=1500]')).toBe(1_500);
    expect(providerRetryAfterMsOf('retry after 3 seconds')).toBeNull();
    expect(providerRetryAfterMsOf('[retry_after_ms=-1]')).toBeNull();
  });
});
