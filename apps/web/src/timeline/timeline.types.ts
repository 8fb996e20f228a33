// The gateway's timeline rows and live frames, as the pages read them (libs/contracts
// `TimelineEntry`, services/gateway/src/edge/live/live.frames.ts; docs/architecture/live.md).

export type TimelineEntryType = 'text' | 'thinking' | 'tool_use' | 'tool_result' | 'error' | 'notice';

export interface TimelineEntry {
  readonly id: string;
  readonly taskId: string;
  readonly seq: number;
  readonly attempt: number;
  readonly type: TimelineEntryType;
  readonly tool: string | null;
  readonly callId: string | null;
  readonly content: string | null;
  readonly input: unknown;
  readonly output: string | null;
  readonly outputTruncated: boolean;
  readonly toolStatus: 'ok' | 'error' | null;
  readonly errorCode: string | null;
  readonly noticeCode: string | null;
  readonly createdAt: string;
}

/** A status, log or usage message: live activity, never a timeline row. */
export interface ActivityMessage {
  readonly type: string;
  readonly [field: string]: unknown;
}

export interface TaskStatusFrame {
  readonly type: 'task';
  readonly taskId: string;
  readonly event: string;
  readonly status: string | null;
  readonly attempt: number | null;
  readonly reason: string | null;
  readonly occurredAt: string;
}

export interface WorkspaceNoticeFrame {
  readonly type: 'workspace';
  readonly kind: string;
  readonly id: string;
  readonly issueId?: string;
  readonly chatSessionId?: string;
  readonly at: string;
}

export type ServerFrame =
  | { readonly type: 'ready'; readonly workspaceId: string }
  | { readonly type: 'subscribed'; readonly taskId: string; readonly afterSeq: number }
  | { readonly type: 'subscribed_workspace'; readonly workspaceId: string }
  | { readonly type: 'unsubscribed'; readonly taskId: string }
  | { readonly type: 'timeline'; readonly taskId: string; readonly entry: TimelineEntry }
  | { readonly type: 'activity'; readonly taskId: string; readonly seq: number; readonly message: ActivityMessage }
  | TaskStatusFrame
  | WorkspaceNoticeFrame
  | { readonly type: 'error'; readonly code: string; readonly message: string; readonly taskId?: string }
  | { readonly type: 'pong' };
