import WebSocket from 'ws';
import type { ServerFrame } from './live.frames';
import { textOfFrame } from './ws-frame.text';

/** A test client of `/api/live` that records every frame and can wait for some. */
export interface LiveTestClient {
  readonly frames: ServerFrame[];
  send(frame: unknown): void;
  waitFor(predicate: (frames: readonly ServerFrame[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Resolves with the close code. */
  closed: Promise<number>;
  /** Resolves with the close code and reason. */
  closedWith: Promise<{ readonly code: number; readonly reason: string }>;
  close(): Promise<void>;
}

export function connectLiveClient(baseUrl: string, options: { readonly token?: string } = {}): Promise<LiveTestClient> {
  const url = `${baseUrl.replace(/^http/, 'ws')}/api/live`;
  const socket = new WebSocket(url, options.token ? { headers: { authorization: `Bearer ${options.token}` } } : {});
  const frames: ServerFrame[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    frames.push(JSON.parse(textOfFrame(data)) as ServerFrame);
    for (const waiter of waiters) waiter();
  });
  const closedWith = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
  const closed = closedWith.then(({ code }) => code);
  const client: LiveTestClient = {
    frames,
    send: (frame) => socket.send(JSON.stringify(frame)),
    waitFor: (predicate, timeoutMs = 20_000) =>
      new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (!predicate(frames)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching frames within ${timeoutMs} ms; last: ${JSON.stringify(frames.slice(-3))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    closed,
    closedWith,
    close: async () => {
      if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.close();
      await closed;
    },
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(client));
    socket.once('unexpected-response', (request, response) => {
      request.destroy();
      reject(new Error(`upgrade refused: ${response.statusCode}`));
    });
    socket.once('error', reject);
  });
}

/** Timeline and activity seqs received for a task, in arrival order. */
export function seqsReceived(frames: readonly ServerFrame[], taskId: string): number[] {
  return frames.flatMap((frame) => {
    if (frame.type === 'timeline' && frame.taskId === taskId) return [frame.entry.seq];
    if (frame.type === 'activity' && frame.taskId === taskId) return [frame.seq];
    return [];
  });
}
