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

/** The buffer (read from `head`), the consumer's state, and the reader waiting for the next message. */
interface QueueState {
  readonly options: AgentMessageQueueOptions;
  readonly highWaterMark: number;
  readonly lowWaterMark: number;
  readonly buffer: AgentMessage[];
  head: number;
  closed: boolean;
  consumer: 'none' | 'attached' | 'detached';
  paused: boolean;
  waiting: ((result: IteratorResult<AgentMessage>) => void) | undefined;
}

/**
 * A single-consumer queue between a push-style CLI stream and a pull-style reader. Nothing is lost
 * while a consumer is slow (the producer is paused instead); a consumer that stops iterating
 * detaches, and later messages are discarded rather than kept forever.
 */
export function createAgentMessageQueue(options: AgentMessageQueueOptions = {}): AgentMessageQueue {
  const highWaterMark = options.highWaterMark ?? 1000;
  const state: QueueState = {
    options,
    highWaterMark,
    lowWaterMark: options.lowWaterMark ?? Math.floor(highWaterMark / 2),
    buffer: [],
    head: 0,
    closed: false,
    consumer: 'none',
    paused: false,
    waiting: undefined,
  };
  const iterator: AsyncIterator<AgentMessage> = {
    next: () => nextMessage(state),
    return: () => stopReading(state),
  };
  return {
    push: (message: AgentMessage): void => push(state, message),
    close: (): void => close(state),
    iterable: {
      [Symbol.asyncIterator](): AsyncIterator<AgentMessage> {
        if (state.consumer !== 'none') throw new Error('agent session messages can be iterated only once');
        state.consumer = 'attached';
        if (size(state) > state.highWaterMark) setPaused(state, true);
        return iterator;
      },
    },
  };
}

const size = (state: QueueState): number => state.buffer.length - state.head;

function setPaused(state: QueueState, value: boolean): void {
  if (state.paused === value) return;
  state.paused = value;
  state.options.onPressure?.(value);
}

/** Hands the waiting reader its end. */
function releaseReader(state: QueueState): void {
  const pending = state.waiting;
  state.waiting = undefined;
  pending?.({ value: undefined, done: true });
}

function push(state: QueueState, message: AgentMessage): void {
  if (state.closed || state.consumer === 'detached') return;
  if (state.waiting) {
    const resolve = state.waiting;
    state.waiting = undefined;
    resolve({ value: message, done: false });
    return;
  }
  state.buffer.push(message);
  // Without a consumer nobody would ever drain, so pausing would deadlock a result-only caller.
  if (state.consumer === 'attached' && size(state) > state.highWaterMark) setPaused(state, true);
}

function close(state: QueueState): void {
  state.closed = true;
  setPaused(state, false);
  releaseReader(state);
}

function nextMessage(state: QueueState): Promise<IteratorResult<AgentMessage>> {
  if (size(state) > 0) return Promise.resolve({ value: take(state), done: false });
  if (state.closed || state.consumer === 'detached') return Promise.resolve({ value: undefined, done: true });
  return new Promise((resolve) => {
    state.waiting = resolve;
  });
}

function take(state: QueueState): AgentMessage {
  const { buffer } = state;
  const message = buffer[state.head] as AgentMessage;
  state.head += 1;
  // Compact now and then instead of shifting on every read.
  if (state.head > 1024 && state.head * 2 > buffer.length) {
    buffer.splice(0, state.head);
    state.head = 0;
  }
  if (state.paused && size(state) <= state.lowWaterMark) setPaused(state, false);
  return message;
}

/** The consumer stopped iterating: it detaches, and what is buffered or comes later is dropped. */
function stopReading(state: QueueState): Promise<IteratorResult<AgentMessage>> {
  state.consumer = 'detached';
  state.buffer.length = 0;
  state.head = 0;
  setPaused(state, false);
  releaseReader(state);
  return Promise.resolve({ value: undefined, done: true });
}
