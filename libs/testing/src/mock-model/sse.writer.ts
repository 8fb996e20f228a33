import type { ServerResponse } from 'node:http';

/** One server-sent event; `data` is written as JSON unless it is already a string. */
export interface ServerSentEvent {
  readonly event?: string;
  readonly data: unknown;
  /** Pause before writing this event (slow scenario). */
  readonly delayMilliseconds?: number;
}

export type StreamOutcome = 'completed' | 'client-disconnected';

export function formatServerSentEvent(serverSentEvent: ServerSentEvent): string {
  const data = typeof serverSentEvent.data === 'string' ? serverSentEvent.data : JSON.stringify(serverSentEvent.data);
  const eventLine = serverSentEvent.event === undefined ? '' : `event: ${serverSentEvent.event}\n`;
  return `${eventLine}${data
    .split('\n')
    .map((line) => `data: ${line}`)
    .join('\n')}\n\n`;
}

/**
 * Writes the events as an SSE response, honouring each event's delay, and stops at once when the
 * client goes away (a pending delay is cut short), so cancel tests see the server notice promptly.
 */
export async function writeServerSentEvents(options: {
  readonly response: ServerResponse;
  readonly events: readonly ServerSentEvent[];
  readonly headers?: { readonly [name: string]: string };
}): Promise<StreamOutcome> {
  const { response } = options;
  let disconnected = false;
  let wakeUp: (() => void) | undefined;
  const onClose = (): void => {
    if (!response.writableFinished) disconnected = true;
    wakeUp?.();
  };
  response.once('close', onClose);
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...options.headers });
  response.flushHeaders();
  try {
    for (const serverSentEvent of options.events) {
      const delay = serverSentEvent.delayMilliseconds ?? 0;
      if (delay > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wakeUp = undefined;
      }
      if (disconnected || response.destroyed) return 'client-disconnected';
      response.write(formatServerSentEvent(serverSentEvent));
    }
    if (disconnected || response.destroyed) return 'client-disconnected';
    await new Promise<void>((resolve) => {
      response.once('close', () => resolve());
      response.end(() => resolve());
    });
    return 'completed';
  } finally {
    response.off('close', onClose);
  }
}
