import type { AgentMessage } from '@switchyard/contracts';
import { createAgentMessageQueue } from './agent-message.queue';

const text = (value: string): AgentMessage => ({ type: 'text', text: value });

describe('agent message queue', () => {
  it('delivers buffered and later messages in order, then ends after close', async () => {
    const queue = createAgentMessageQueue();
    queue.push(text('a'));
    const iterator = queue.iterable[Symbol.asyncIterator]();
    await expect(iterator.next()).resolves.toEqual({ value: text('a'), done: false });
    const waiting = iterator.next();
    queue.push(text('b'));
    await expect(waiting).resolves.toEqual({ value: text('b'), done: false });
    queue.push(text('c'));
    queue.close();
    await expect(iterator.next()).resolves.toEqual({ value: text('c'), done: false });
    await expect(iterator.next()).resolves.toEqual({ value: undefined, done: true });
  });

  it('asks the producer to pause above the high-water mark only once someone reads', async () => {
    const pressure: boolean[] = [];
    const queue = createAgentMessageQueue({ highWaterMark: 2, lowWaterMark: 1, onPressure: (paused) => pressure.push(paused) });
    for (const value of ['a', 'b', 'c', 'd']) queue.push(text(value));
    expect(pressure).toEqual([]);
    const iterator = queue.iterable[Symbol.asyncIterator]();
    expect(pressure).toEqual([true]);
    await iterator.next();
    await iterator.next();
    expect(pressure).toEqual([true]);
    await iterator.next();
    expect(pressure).toEqual([true, false]);
  });

  it('detaches a consumer that stops early and discards what comes after', async () => {
    const pressure: boolean[] = [];
    const queue = createAgentMessageQueue({ highWaterMark: 1, onPressure: (paused) => pressure.push(paused) });
    const iterator = queue.iterable[Symbol.asyncIterator]();
    queue.push(text('a'));
    queue.push(text('b'));
    queue.push(text('c'));
    await iterator.return?.();
    queue.push(text('d'));
    await expect(iterator.next()).resolves.toEqual({ value: undefined, done: true });
    expect(pressure).toEqual([true, false]);
  });

  it('can be iterated only once', () => {
    const queue = createAgentMessageQueue();
    queue.iterable[Symbol.asyncIterator]();
    expect(() => queue.iterable[Symbol.asyncIterator]()).toThrow('only once');
  });
});
