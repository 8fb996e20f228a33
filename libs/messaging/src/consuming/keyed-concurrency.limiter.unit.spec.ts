import { KeyedConcurrencyLimiter } from './keyed-concurrency.limiter';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

describe('KeyedConcurrencyLimiter', () => {
  it('runs tasks with the same key in submission order, one at a time', async () => {
    const limiter = new KeyedConcurrencyLimiter(4);
    const events: string[] = [];
    const first = deferred();
    await limiter.acquire();
    limiter.run('a', async () => {
      events.push('a1 start');
      await first.promise;
      events.push('a1 end');
    });
    await limiter.acquire();
    limiter.run('a', () => {
      events.push('a2');
      return Promise.resolve();
    });
    await limiter.acquire();
    limiter.run('b', () => {
      events.push('b1');
      return Promise.resolve();
    });

    first.resolve();
    await limiter.idle();

    expect(events.indexOf('a1 end')).toBeLessThan(events.indexOf('a2'));
    expect(events).toContain('b1');
  });

  it('bounds tasks in flight', async () => {
    const limiter = new KeyedConcurrencyLimiter(2);
    const gates = [deferred(), deferred()];
    for (const [index, gate] of gates.entries()) {
      await limiter.acquire();
      limiter.run(`key${index}`, () => gate.promise);
    }
    let thirdAcquired = false;
    const third = limiter.acquire().then(() => {
      thirdAcquired = true;
    });
    await Promise.resolve();

    expect(thirdAcquired).toBe(false);
    expect(limiter.inFlight).toBe(2);

    gates[0]?.resolve();
    await third;
    expect(thirdAcquired).toBe(true);
    limiter.release();
    gates[1]?.resolve();
    await limiter.idle();
    expect(limiter.inFlight).toBe(0);
  });

  it('keeps running after a task rejects', async () => {
    const limiter = new KeyedConcurrencyLimiter(1);
    const events: string[] = [];
    await limiter.acquire();
    limiter.run('a', () => Promise.reject(new Error('boom')));
    await limiter.acquire();
    limiter.run('a', () => {
      events.push('after failure');
      return Promise.resolve();
    });

    await limiter.idle();

    expect(events).toEqual(['after failure']);
  });
});
