// The parts of the Codex app-server protocol (CLI 0.171.0, `codex app-server generate-ts`) this
// adapter reads or sends. Everything else on a frame is ignored; an unknown notification is reported.

export type CodexApprovalPolicy = 'never' | 'on-request' | 'on-failure' | 'untrusted';
export type CodexSandboxMode = 'read-only' | 'workspace-write' | 'danger-full-access';

export interface CodexThread {
  readonly id: string;
  readonly model?: string;
  readonly modelProvider?: string;
  readonly cliVersion?: string;
}

/** Result of `thread/start` and `thread/resume`; also the payload of `thread/started`. */
export interface CodexThreadResponse {
  readonly thread: CodexThread;
  readonly model?: string;
  readonly modelProvider?: string;
}

export type CodexTurnStatus = 'completed' | 'interrupted' | 'failed' | 'inProgress';

export interface CodexTurnError {
  readonly message: string;
  readonly additionalDetails?: string | null;
}

export interface CodexTurn {
  readonly id: string;
  readonly status: CodexTurnStatus;
  readonly error: CodexTurnError | null;
}

/** Result of `turn/start`. */
export interface CodexTurnResponse {
  readonly turn: CodexTurn;
}

export interface CodexAgentMessageItem {
  readonly type: 'agentMessage';
  readonly id: string;
  readonly text: string;
}
export interface CodexReasoningItem {
  readonly type: 'reasoning';
  readonly id: string;
  readonly summary: readonly string[];
  readonly content: readonly string[];
}
export type CodexCommandExecutionStatus = 'inProgress' | 'completed' | 'failed' | 'declined';
export interface CodexCommandExecutionItem {
  readonly type: 'commandExecution';
  readonly id: string;
  readonly command: string;
  readonly cwd: string;
  readonly status: CodexCommandExecutionStatus;
  readonly aggregatedOutput: string | null;
  readonly exitCode: number | null;
  readonly durationMs: number | null;
}
export interface CodexFileUpdateChange {
  readonly path: string;
  readonly kind: unknown;
  readonly diff: string;
}
export interface CodexFileChangeItem {
  readonly type: 'fileChange';
  readonly id: string;
  readonly changes: readonly CodexFileUpdateChange[];
  readonly status: 'inProgress' | 'completed' | 'failed' | 'declined';
}
export interface CodexMcpToolCallItem {
  readonly type: 'mcpToolCall';
  readonly id: string;
  readonly server: string;
  readonly tool: string;
  readonly status: 'inProgress' | 'completed' | 'failed';
  readonly arguments: unknown;
  readonly result: unknown;
  readonly error: { readonly message: string } | null;
}
export type CodexThreadItem =
  | CodexAgentMessageItem
  | CodexReasoningItem
  | CodexCommandExecutionItem
  | CodexFileChangeItem
  | CodexMcpToolCallItem
  | { readonly type: string; readonly id: string };

export interface CodexItemNotification {
  readonly item: CodexThreadItem;
  readonly threadId: string;
  readonly turnId: string;
}

export interface CodexTokenUsageBreakdown {
  readonly totalTokens: number;
  readonly inputTokens: number;
  readonly cachedInputTokens: number;
  readonly cacheWriteInputTokens?: number;
  readonly outputTokens: number;
  readonly reasoningOutputTokens: number;
}
export interface CodexTokenUsageNotification {
  readonly threadId: string;
  readonly turnId: string;
  /** `total` is the thread's running total (earlier turns included), `last` the latest model call. */
  readonly tokenUsage: { readonly total: CodexTokenUsageBreakdown; readonly last: CodexTokenUsageBreakdown };
}

export interface CodexTurnNotification {
  readonly threadId: string;
  readonly turn: CodexTurn;
}

/** `error`: a failure inside the turn; with `willRetry` Codex tries again itself. */
export interface CodexErrorNotification {
  readonly error: CodexTurnError;
  readonly willRetry: boolean;
}

/** `warning`, `configWarning`, `deprecationNotice`, `guardianWarning`. */
export interface CodexWarningNotification {
  readonly message?: string;
  readonly summary?: string;
  readonly details?: string | null;
}

/** A JSON-RPC frame as Codex writes it (no `"jsonrpc"` member). */
export interface CodexFrame {
  readonly id?: number | string;
  readonly method?: string;
  readonly params?: unknown;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string };
}

/** Server requests that ask for approval, all answered per policy. */
export const CODEX_APPROVAL_REQUESTS = {
  'item/commandExecution/requestApproval': { decision: 'accept' },
  'item/fileChange/requestApproval': { decision: 'accept' },
  // The pre-v2 names, still sent by some paths.
  execCommandApproval: { decision: 'approved' },
  applyPatchApproval: { decision: 'approved' },
} as const satisfies Readonly<Record<string, unknown>>;

/**
 * Notifications of protocol 0.171.0 that carry nothing the timeline keeps (live deltas, status,
 * account and UI state). They still count as activity for the watchdogs.
 */
export const CODEX_IGNORED_NOTIFICATIONS: ReadonlySet<string> = new Set([
  'thread/status/changed',
  'thread/readState/changed',
  'thread/archived',
  'thread/deleted',
  'thread/unarchived',
  'thread/closed',
  'thread/reverted',
  'skills/changed',
  'thread/name/updated',
  'thread/section/changed',
  'thread/attachment/updated',
  'thread/goal/updated',
  'thread/prediction/updated',
  'thread/goal/cleared',
  'thread/queue/changed',
  'project/changed',
  'thread/project/updated',
  'thread/environment/connected',
  'thread/environment/disconnected',
  'thread/settings/updated',
  'turn/started',
  'hook/started',
  'hook/completed',
  'turn/diff/updated',
  'turn/plan/updated',
  'item/autoApprovalReview/started',
  'item/autoApprovalReview/completed',
  'autoApprovalReview/strictReviewRequired',
  'rawResponseItem/completed',
  'rawResponse/completed',
  'item/agentMessage/delta',
  'item/plan/delta',
  'command/exec/outputDelta',
  'process/outputDelta',
  'thread/search/partial',
  'process/exited',
  'item/commandExecution/outputDelta',
  'item/commandExecution/terminalInteraction',
  'item/fileChange/outputDelta',
  'item/fileChange/patchUpdated',
  'serverRequest/resolved',
  'item/mcpToolCall/progress',
  'mcpServer/oauthLogin/completed',
  'mcpServer/startupStatus/updated',
  'mcpServer/event/stream/notification',
  'account/updated',
  'account/gatewayOAuth/changed',
  'account/rateLimits/updated',
  'app/list/updated',
  'remoteControl/status/changed',
  'externalAgentConfig/import/progress',
  'externalAgentConfig/import/completed',
  'fs/changed',
  'item/reasoning/summaryTextDelta',
  'item/reasoning/summaryPartAdded',
  'item/reasoning/textDelta',
  'thread/compacted',
  'model/rerouted',
  'model/verification',
  'modelProvider/authRecoveryStarted',
  'modelProvider/authRecoveryCompleted',
  'turn/moderationMetadata',
  'model/safetyBuffering/updated',
  'fuzzyFileSearch/sessionUpdated',
  'fuzzyFileSearch/sessionCompleted',
]);

/** Item types that are not timeline content (the echoed prompt, bookkeeping). */
export const CODEX_IGNORED_ITEM_TYPES: ReadonlySet<string> = new Set(['userMessage', 'hookPrompt', 'contextCompaction', 'enteredReviewMode', 'exitedReviewMode', 'sleep']);
