import { z } from 'zod';
import type { AgentMessage, TaskState, TimelineEntry } from '@switchyard/contracts';
import type { WorkspaceNotice } from '../../workspace/notices/workspace-notice';

// The WebSocket protocol at `/api/live`: JSON text frames, one object each.

export const clientFrameSchema = z.discriminatedUnion('type', [
  /** For clients that cannot set `Authorization` on the upgrade (browsers). */
  z.object({ type: z.literal('auth'), token: z.string().min(1).max(500) }),
  /** `afterSeq`: the last seq the client holds; every message and status change after it is sent, then live. */
  z.object({ type: z.literal('subscribe'), taskId: z.string().min(1).max(256), afterSeq: z.number().int().min(-1).default(-1) }),
  z.object({ type: z.literal('unsubscribe'), taskId: z.string().min(1).max(256) }),
  /** Status changes of every task of the caller's workspace and notices of its issues, comments and chats, live only. */
  z.object({ type: z.literal('subscribe_workspace') }),
  z.object({ type: z.literal('ping') }),
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;

/** One status change of a task, without the event's payload (prompts and env stay private). */
export interface TaskStatusChange {
  readonly taskId: string;
  /** The lifecycle event, e.g. `task.started`. */
  readonly event: string;
  /** The status it leads to; null when it changes none (`task.cancel_requested`, `task.timed_out`). */
  readonly status: TaskState | null;
  readonly attempt: number | null;
  readonly reason: string | null;
  readonly occurredAt: string;
}

/** What a `subscribe_workspace` client receives. */
export type WorkspaceFeedFrame = ({ readonly type: 'task' } & TaskStatusChange) | ({ readonly type: 'workspace' } & WorkspaceNotice);

export type ServerFrame =
  | { readonly type: 'ready'; readonly workspaceId: string }
  | { readonly type: 'subscribed'; readonly taskId: string; readonly afterSeq: number }
  | { readonly type: 'subscribed_workspace'; readonly workspaceId: string }
  | { readonly type: 'unsubscribed'; readonly taskId: string }
  | { readonly type: 'timeline'; readonly taskId: string; readonly entry: TimelineEntry }
  /** Status, log and usage messages: never timeline rows; replayed from the stream on resume, like rows. */
  | { readonly type: 'activity'; readonly taskId: string; readonly seq: number; readonly message: AgentMessage }
  | WorkspaceFeedFrame
  | { readonly type: 'error'; readonly code: LiveErrorCode; readonly message: string; readonly taskId?: string }
  | { readonly type: 'pong' };

export const LIVE_ERROR_CODES = {
  bad_frame: 'bad_frame',
  unauthenticated: 'unauthenticated',
  not_found: 'not_found',
  too_many_subscriptions: 'too_many_subscriptions',
  feed_failed: 'feed_failed',
  /** The credential (a scoped API token) may not read tasks (`tasks:read`). */
  token_scope_insufficient: 'token_scope_insufficient',
} as const;
export type LiveErrorCode = keyof typeof LIVE_ERROR_CODES;

/** WebSocket close codes (4000-4999 are the application's). */
export const LIVE_CLOSE_CODES = {
  /** No valid credentials within the auth window. */
  unauthenticated: 4401,
  /** The token the socket authenticated with was revoked (reason `token_revoked`); reconnecting with it is refused. */
  tokenRevoked: 4403,
  /** An `auth` frame from an address that presented too many invalid tokens; the reason says when to retry. */
  authRateLimited: 4429,
  /** The client read too slowly; it reconnects with its last seq and loses nothing. */
  slowConsumer: 4008,
  goingAway: 1001,
} as const;
