import { createCleanupStack } from './cleanup-stack';

describe('cleanup stack', () => {
  it('undoes newest first, goes on past a failing step and reports it, and runs each step once', async () => {
    const stack = createCleanupStack();
    const order: string[] = [];
    stack.defer('database', () => {
      order.push('database');
    });
    stack.defer('streams', () => {
      throw new Error('nats down');
    });
    stack.defer('daemon', async () => {
      await Promise.resolve();
      order.push('daemon');
    });

    const failures = await stack.unwind();

    expect(order).toEqual(['daemon', 'database']);
    expect(failures.map((failure) => failure.label)).toEqual(['streams']);
    await expect(stack.unwind()).resolves.toEqual([]);
    expect(order).toEqual(['daemon', 'database']);
  });
});
