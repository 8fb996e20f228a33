import { FailedAuthLimiter, type AuthAttempt } from './failed-auth.limiter';

/** A limiter on a clock the test moves. */
function limiterAt(options: { maxFailures?: number; windowMs?: number; maxClients?: number } = {}): { limiter: FailedAuthLimiter; advance: (ms: number) => void } {
  let now = 1_000_000;
  const limiter = new FailedAuthLimiter({ maxFailures: options.maxFailures ?? 3, windowMs: options.windowMs ?? 60_000, maxClients: options.maxClients ?? 100, now: () => now });
  return { limiter, advance: (ms) => void (now += ms) };
}

/** `times` attempts that each fail before the next is made. */
const fail = (limiter: FailedAuthLimiter, client: string, times: number): AuthAttempt[] =>
  Array.from({ length: times }, () => {
    const attempt = limiter.admit(client);
    if (attempt.admitted) attempt.failed();
    return attempt;
  });

describe('failed authentication limiter', () => {
  it('given 3 failures within the window, refuses the 4th attempt with the seconds until the oldest leaves it', () => {
    const { limiter, advance } = limiterAt();
    fail(limiter, '203.0.113.7', 1);
    advance(20_500);
    fail(limiter, '203.0.113.7', 2);

    expect(limiter.admit('203.0.113.7')).toEqual({ admitted: false, retryAfterSeconds: 40 });
  });

  it('given a refusal, admits again once the oldest failure has left the window, one attempt per failure that left', () => {
    const { limiter, advance } = limiterAt();
    fail(limiter, 'a', 1);
    advance(30_000);
    fail(limiter, 'a', 2);
    advance(30_000);

    expect(limiter.admit('a').admitted).toBe(true);
    expect(limiter.admit('a')).toEqual({ admitted: false, retryAfterSeconds: 30 });
  });

  it('does not count a success, and a success does not wipe the failures before it', () => {
    const { limiter } = limiterAt();
    fail(limiter, 'a', 2);
    for (let index = 0; index < 5; index++) {
      const attempt = limiter.admit('a');
      if (attempt.admitted) attempt.forgive();
    }
    expect(limiter.admit('a').admitted).toBe(true);
    expect(limiter.admit('a').admitted).toBe(false);
  });

  it('never holds back a client without failures, however many attempts it has in flight', () => {
    const { limiter } = limiterAt();
    const burst = Array.from({ length: 50 }, () => limiter.admit('a'));
    expect(burst.every((attempt) => attempt.admitted)).toBe(true);
    for (const attempt of burst) if (attempt.admitted) attempt.forgive();
    expect(limiter.trackedClients).toBe(0);
  });

  it('once a client has failed, counts its attempts in flight: a burst of concurrent guesses is held to the limit', () => {
    const { limiter } = limiterAt();
    fail(limiter, 'a', 1);
    const burst = Array.from({ length: 10 }, () => limiter.admit('a'));
    expect(burst.map((attempt) => attempt.admitted)).toEqual([true, true, false, false, false, false, false, false, false, false]);
  });

  it('keeps clients apart', () => {
    const { limiter } = limiterAt();
    fail(limiter, 'a', 3);
    expect(limiter.admit('a').admitted).toBe(false);
    expect(limiter.admit('b').admitted).toBe(true);
  });

  it('stays bounded: forgets the least recently failed client past maxClients, and clients whose failures expired', () => {
    const { limiter, advance } = limiterAt({ maxClients: 2 });
    fail(limiter, 'a', 3);
    fail(limiter, 'b', 1);
    fail(limiter, 'c', 1);
    expect(limiter.trackedClients).toBe(2);
    expect(limiter.admit('a').admitted).toBe(true);

    advance(60_001);
    fail(limiter, 'd', 1);
    expect(limiter.trackedClients).toBe(1);
  });

  it('refuses settings that are not positive integers', () => {
    expect(() => new FailedAuthLimiter({ maxFailures: 0, windowMs: 60_000, maxClients: 10 })).toThrow(/maxFailures/);
    expect(() => new FailedAuthLimiter({ maxFailures: 10, windowMs: 1.5, maxClients: 10 })).toThrow(/windowMs/);
  });
});
