import type { AgentMessage } from '@switchyard/contracts';

export interface AgentMessageQueueOptions {
  /** Above this many buffered messages (with a consumer attached) the producer is asked to pause. */
  readonly highWaterMark?: number;
  /** The producer resumes once the buffer is down to this. */
  readonly lowWaterMark?: number;
  readonly onPressure?: (paused: boolean) => void;
}

export interface AgentMessageQueue {
  push(message: AgentMessage): void;
  /** No more messages; the iterator ends after the buffered ones. */
  close(): void;
  readonly iterable: AsyncIterable<AgentMessage>;
}

/**
 * A single-consumer queue between a push-style CLI stream and a pull-style reader. Nothing is lost
 * while a consumer is slow (the producer is paused instead); a consumer that stops iterating
 * detaches, and later messages are discarded rather than kept forever.
 */
export function createAgentMessageQueue(options: AgentMessageQueueOptions = {}): AgentMessageQueue {
  const highWaterMark = options.highWaterMark ?? 1000;
  const lowWaterMark = options.lowWaterMark ?? Math.floor(highWaterMark / 2);
  const buffer: AgentMessage[] = [];
  let head = 0;
  let closed = false;
  let consumer: 'none' | 'attached' | 'detached' = 'none';
  let paused = false;
  let waiting: ((result: IteratorResult<AgentMessage>) => void) | undefined;

  const size = (): number => buffer.length - head;

  const setPaused = (value: boolean): void => {
    if (paused === value) return;
    paused = value;
    options.onPressure?.(value);
  };

  const take = (): AgentMessage => {
    const message = buffer[head] as AgentMessage;
    head += 1;
    // Compact now and then instead of shifting on every read.
    if (head > 1024 && head * 2 > buffer.length) {
      buffer.splice(0, head);
      head = 0;
    }
    if (paused && size() <= lowWaterMark) setPaused(false);
    return message;
  };

  const detach = (): void => {
    consumer = 'detached';
    buffer.length = 0;
    head = 0;
    setPaused(false);
  };

  const iterator: AsyncIterator<AgentMessage> = {
    next(): Promise<IteratorResult<AgentMessage>> {
      if (size() > 0) return Promise.resolve({ value: take(), done: false });
      if (closed || consumer === 'detached') return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    return(): Promise<IteratorResult<AgentMessage>> {
      detach();
      const pending = waiting;
      waiting = undefined;
      pending?.({ value: undefined, done: true });
      return Promise.resolve({ value: undefined, done: true });
    },
  };

  return {
    push(message: AgentMessage): void {
      if (closed || consumer === 'detached') return;
      if (waiting) {
        const resolve = waiting;
        waiting = undefined;
        resolve({ value: message, done: false });
        return;
      }
      buffer.push(message);
      // Without a consumer nobody would ever drain, so pausing would deadlock a result-only caller.
      if (consumer === 'attached' && size() > highWaterMark) setPaused(true);
    },
    close(): void {
      closed = true;
      setPaused(false);
      const pending = waiting;
      waiting = undefined;
      pending?.({ value: undefined, done: true });
    },
    iterable: {
      [Symbol.asyncIterator](): AsyncIterator<AgentMessage> {
        if (consumer !== 'none') throw new Error('agent session messages can be iterated only once');
        consumer = 'attached';
        if (size() > highWaterMark) setPaused(true);
        return iterator;
      },
    },
  };
}
