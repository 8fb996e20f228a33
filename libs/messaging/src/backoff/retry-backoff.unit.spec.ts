import { getEventListeners } from 'node:events';
import { exponentialBackoffDelay, redeliveryDelay, sleep } from './retry-backoff';

describe('exponentialBackoffDelay', () => {
  const options = { initialDelayMs: 100, maximumDelayMs: 1_000, multiplier: 2, jitter: 0 };

  it('doubles per attempt up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((attempt) => exponentialBackoffDelay(attempt, options))).toEqual([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
  });

  it('replaces the jittered fraction with randomness', () => {
    const jittered = { ...options, jitter: 0.5 };

    expect(exponentialBackoffDelay(2, { ...jittered, random: () => 0 })).toBe(100);
    expect(exponentialBackoffDelay(2, { ...jittered, random: () => 1 })).toBe(200);
    expect(exponentialBackoffDelay(2, { ...jittered, random: () => 0.5 })).toBe(150);
  });

  it('clamps jitter to [0, 1]', () => {
    expect(exponentialBackoffDelay(1, { ...options, jitter: 5, random: () => 0 })).toBe(0);
    expect(exponentialBackoffDelay(1, { ...options, jitter: -1, random: () => 0 })).toBe(100);
  });
});

describe('redeliveryDelay', () => {
  it('takes the entry for the failed delivery and repeats the last one', () => {
    const backoff = [100, 500, 2_000];

    expect([1, 2, 3, 4, 9].map((deliveryCount) => redeliveryDelay({ deliveryCount, backoffMs: backoff, fallbackMs: 50 }))).toEqual([
      100, 500, 2_000, 2_000, 2_000,
    ]);
  });

  it('falls back without a backoff list', () => {
    expect(redeliveryDelay({ deliveryCount: 3, backoffMs: [], fallbackMs: 750 })).toBe(750);
  });
});

describe('sleep', () => {
  it('resolves early when aborted', async () => {
    const controller = new AbortController();
    const sleeping = sleep(60_000, controller.signal);
    controller.abort();

    await expect(sleeping).resolves.toBeUndefined();
  });

  it('takes its abort listener off the signal when the wait ends, however it ends', async () => {
    const controller = new AbortController();
    // More waits than the default listener limit, as a long-lived shared signal sees over time.
    for (let wait = 0; wait < 20; wait += 1) await sleep(1, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);

    const concurrent = Array.from({ length: 3 }, () => sleep(60_000, controller.signal));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(3);
    controller.abort();
    await Promise.all(concurrent);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('adds no listener to a signal that is already aborted', async () => {
    const signal = AbortSignal.abort();

    await sleep(60_000, signal);

    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});
