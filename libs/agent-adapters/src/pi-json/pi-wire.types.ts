// The parts of Pi's `--mode json` events this adapter reads (`@mariozechner/pi-coding-agent`
// 0.73.x; Oh-My-Pi's `omp` prints the same shapes, see pi-dialect.ts). One JSON object per line:
// the session header first, then the agent session events. Everything else on an event is ignored.

export interface PiTextContent {
  readonly type: 'text';
  readonly text: string;
}
export interface PiThinkingContent {
  readonly type: 'thinking';
  readonly thinking: string;
  readonly redacted?: boolean;
}
export interface PiToolCallContent {
  readonly type: 'toolCall';
  readonly id: string;
  readonly name: string;
  readonly arguments?: unknown;
}
export type PiAssistantContent = PiTextContent | PiThinkingContent | PiToolCallContent | { readonly type: string };

export interface PiUsage {
  readonly input?: number;
  readonly output?: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
}

/** `stop`, `length`, `toolUse` end a model call normally; `error` and `aborted` do not. */
export type PiStopReason = 'stop' | 'length' | 'toolUse' | 'error' | 'aborted';

export interface PiAssistantMessage {
  readonly role: 'assistant';
  readonly content: readonly PiAssistantContent[];
  readonly provider?: string;
  readonly model?: string;
  readonly usage?: PiUsage;
  /** A `PiStopReason`; kept open so a newer CLI's reason is read, not rejected. */
  readonly stopReason?: string;
  readonly errorMessage?: string;
}
/** User prompts, tool results and the coding agent's own kinds (`bashExecution`, `custom`, summaries). */
export interface PiOtherMessage {
  readonly role: string;
}
export type PiMessage = PiAssistantMessage | PiOtherMessage;

/** First line of the stream; `id` is the session id `--session` (Pi) / `--resume` (omp) accepts. */
export interface PiSessionHeader {
  readonly type: 'session';
  readonly version?: number;
  readonly id: string;
  readonly timestamp?: string;
  readonly cwd?: string;
}

export interface PiMessageEndEvent {
  readonly type: 'message_end';
  readonly message: PiMessage;
}

export interface PiToolResultPayload {
  readonly content?: ReadonlyArray<{ readonly type: string; readonly text?: string }>;
}
export interface PiToolExecutionStartEvent {
  readonly type: 'tool_execution_start';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly args?: unknown;
}
export interface PiToolExecutionEndEvent {
  readonly type: 'tool_execution_end';
  readonly toolCallId: string;
  readonly toolName: string;
  /** A tool result (`{content, details}`); a thrown tool error may arrive as a bare string. */
  readonly result?: PiToolResultPayload | string;
  readonly isError?: boolean;
}

/**
 * End of one agent loop. Pi prints it again after an automatic retry or an overflow compaction, so
 * on its own it is not the end of the run. omp marks the final one with `isTerminal: true`.
 */
export interface PiAgentEndEvent {
  readonly type: 'agent_end';
  readonly messages?: readonly PiMessage[];
  /** omp only: false while the session will continue on its own (retry, compaction, queued input). */
  readonly isTerminal?: boolean;
}

export interface PiAutoRetryStartEvent {
  readonly type: 'auto_retry_start';
  readonly attempt: number;
  readonly maxAttempts: number;
  readonly delayMs: number;
  readonly errorMessage: string;
}
export interface PiAutoRetryEndEvent {
  readonly type: 'auto_retry_end';
  readonly success: boolean;
  readonly attempt: number;
  readonly finalError?: string;
}
export interface PiCompactionEndEvent {
  readonly type: 'compaction_end' | 'auto_compaction_end';
  readonly aborted?: boolean;
  readonly willRetry?: boolean;
  readonly errorMessage?: string;
}
/** omp's session notices (`level` info / warning / error). */
export interface PiNoticeEvent {
  readonly type: 'notice';
  readonly level?: string;
  readonly message?: string;
}
/** A bare error event (listed for the family by other integrations; not printed by Pi 0.73). */
export interface PiErrorEvent {
  readonly type: 'error';
  readonly message?: string;
  readonly error?: string | { readonly message?: string };
}
