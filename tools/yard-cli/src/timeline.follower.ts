import WebSocket from 'ws';
import type { AgentMessage, TimelineEntry } from '@switchyard/contracts';

/** The frames of the gateway's `/api/live` endpoint this follower reads (see the gateway docs). */
type LiveFrame =
  | { readonly type: 'ready' | 'subscribed' | 'pong' | 'unsubscribed' | 'subscribed_workspace' }
  | { readonly type: 'timeline'; readonly taskId: string; readonly entry: TimelineEntry }
  | { readonly type: 'activity'; readonly taskId: string; readonly seq: number; readonly message: AgentMessage }
  | { readonly type: 'task'; readonly taskId: string; readonly event: string; readonly status: string | null; readonly reason: string | null }
  | { readonly type: 'error'; readonly code: string; readonly message: string };

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const RECONNECT_DELAYS_MS = [250, 500, 1_000, 2_000, 5_000];

export interface FollowHandlers {
  readonly onEntry: (entry: TimelineEntry) => void;
  readonly onActivity: (seq: number, message: AgentMessage) => void;
  readonly onStatus: (change: { readonly event: string; readonly status: string | null; readonly reason: string | null }) => void;
  /** Connection trouble worth telling the user (a reconnect follows). */
  readonly onNotice: (text: string) => void;
}

export class FollowError extends Error {
  override readonly name = 'FollowError';
}

/**
 * Follows one task over the gateway's WebSocket until it ends: every timeline row and activity
 * once, in seq order. When the connection drops it reconnects and resumes after the last seq it
 * printed, so nothing is lost or repeated. Resolves with the task's final status.
 */
export async function followTask(options: { readonly url: string; readonly token: string; readonly taskId: string; readonly afterSeq?: number; readonly handlers: FollowHandlers }): Promise<string> {
  let lastSeq = options.afterSeq ?? -1;
  let attempt = 0;
  for (;;) {
    const outcome = await followOnce();
    if (outcome.kind === 'ended') return outcome.status;
    if (outcome.kind === 'refused') throw new FollowError(outcome.reason);
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    attempt += 1;
    options.handlers.onNotice(`connection lost (${outcome.reason}); resuming after #${lastSeq} in ${delay} ms`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }

  function followOnce(): Promise<{ kind: 'ended'; status: string } | { kind: 'lost' | 'refused'; reason: string }> {
    return new Promise((resolve) => {
      const socket = new WebSocket(`${options.url.replace(/^http/, 'ws')}/api/live`, { headers: { authorization: `Bearer ${options.token}` } });
      let settled = false;
      const settle = (outcome: { kind: 'ended'; status: string } | { kind: 'lost' | 'refused'; reason: string }): void => {
        if (settled) return;
        settled = true;
        if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.terminate();
        resolve(outcome);
      };
      socket.on('open', () => {
        attempt = 0;
        socket.send(JSON.stringify({ type: 'subscribe', taskId: options.taskId, afterSeq: lastSeq }));
      });
      socket.on('message', (data) => {
        const text = Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8');
        const frame = JSON.parse(text) as LiveFrame;
        switch (frame.type) {
          case 'timeline':
            if (frame.entry.seq <= lastSeq) return;
            lastSeq = frame.entry.seq;
            return options.handlers.onEntry(frame.entry);
          case 'activity':
            if (frame.seq <= lastSeq) return;
            lastSeq = frame.seq;
            return options.handlers.onActivity(frame.seq, frame.message);
          case 'task':
            options.handlers.onStatus(frame);
            if (frame.status && TERMINAL.has(frame.status)) settle({ kind: 'ended', status: frame.status });
            return;
          case 'error':
            // Unknown task or bad request: retrying will not help. A failed feed is retried.
            return settle(frame.code === 'feed_failed' ? { kind: 'lost', reason: frame.message } : { kind: 'refused', reason: `${frame.code}: ${frame.message}` });
          default:
            return;
        }
      });
      socket.on('unexpected-response', (request, response) => {
        request.destroy();
        settle(response.statusCode === 401 ? { kind: 'refused', reason: 'the gateway refused the API token' } : { kind: 'lost', reason: `HTTP ${response.statusCode}` });
      });
      socket.on('error', (error) => settle({ kind: 'lost', reason: error.message }));
      socket.on('close', (code, reason) => settle(code === 4401 ? { kind: 'refused', reason: 'the gateway refused the API token' } : { kind: 'lost', reason: `closed ${code} ${reason.toString()}`.trim() }));
    });
  }
}
