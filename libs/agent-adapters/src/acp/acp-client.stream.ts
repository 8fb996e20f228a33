import { ReadableStream, WritableStream, type ReadableStreamDefaultController } from 'node:stream/web';
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';

/** The ACP connection ended (the agent exited) before a request was answered. */
export class AcpConnectionClosedError extends Error {
  readonly isRetryable = false;

  constructor(reason: string, options?: { cause?: unknown }) {
    super(`the ACP connection closed: ${reason}`, options);
    this.name = 'AcpConnectionClosedError';
  }
}

export interface AcpClientStreamOptions {
  /** Writes one serialized message plus newline to the agent's stdin. */
  readonly writeLine: (line: string) => Promise<void>;
  /** Every message the client sends, just before it is written (the translator's client side). */
  readonly onMessageSent: (message: AnyMessage) => void;
}

export interface AcpClientStream {
  /** What the SDK's `ClientApp.connect` reads from and writes to. */
  readonly stream: Stream;
  /** Hands one parsed stdout frame of the agent to the SDK; ignored once the stream has ended. */
  receive(frame: unknown): void;
  /** No more frames will come (the agent exited). Idempotent. */
  end(): void;
}

/**
 * The SDK's message `Stream` over frames we already have: the agent session splits and parses
 * stdout for the translator, so the readable side is fed from there rather than from a second
 * reader of the pipe. The writable side writes each message as one JSON line and tees it to the
 * translator, so the translator sees the whole conversation while the SDK owns the JSON-RPC state.
 */
export function createAcpClientStream(options: AcpClientStreamOptions): AcpClientStream {
  let controller: ReadableStreamDefaultController<AnyMessage> | undefined;
  let ended = false;

  const readable = new ReadableStream<AnyMessage>({
    start: (streamController) => {
      controller = streamController;
    },
    // The SDK cancels its reader when the connection closes; enqueueing after that would throw.
    cancel: () => {
      ended = true;
    },
  });

  const writable = new WritableStream<AnyMessage>({
    write: async (message) => {
      options.onMessageSent(message);
      await options.writeLine(`${JSON.stringify(message)}\n`);
    },
  });

  return {
    stream: { readable, writable },
    receive(frame: unknown): void {
      if (ended) return;
      // Unvalidated on purpose: the SDK checks the JSON-RPC shape and answers invalid requests.
      controller?.enqueue(frame as AnyMessage);
    },
    end(): void {
      if (ended) return;
      ended = true;
      controller?.close();
    },
  };
}
