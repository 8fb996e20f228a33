// The parts of Claude Code's `--output-format stream-json` events this adapter reads (CLI 2.1.x).
// Everything else on an event is ignored; an event of an unknown type is reported, not dropped.

export interface ClaudeTextBlock {
  readonly type: 'text';
  readonly text: string;
}
export interface ClaudeThinkingBlock {
  readonly type: 'thinking';
  readonly thinking: string;
}
export interface ClaudeToolUseBlock {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}
export interface ClaudeToolResultBlock {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content?: string | ReadonlyArray<{ readonly type: string; readonly text?: string }>;
  readonly is_error?: boolean;
}
export type ClaudeContentBlock = ClaudeTextBlock | ClaudeThinkingBlock | ClaudeToolUseBlock | ClaudeToolResultBlock | { readonly type: string };

export interface ClaudeSystemEvent {
  readonly type: 'system';
  readonly subtype: string;
  readonly session_id?: string;
  readonly model?: string;
  readonly claude_code_version?: string;
}
export interface ClaudeAssistantEvent {
  readonly type: 'assistant';
  readonly session_id?: string;
  readonly message: { readonly model?: string; readonly content: readonly ClaudeContentBlock[] };
}
export interface ClaudeUserEvent {
  readonly type: 'user';
  readonly message: { readonly content: string | readonly ClaudeContentBlock[] };
}
export interface ClaudeModelUsage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly cacheReadInputTokens?: number;
  readonly cacheCreationInputTokens?: number;
}
export interface ClaudeResultEvent {
  readonly type: 'result';
  /** `success`, `error_during_execution`, `error_max_turns`, ... */
  readonly subtype: string;
  readonly is_error?: boolean;
  readonly result?: string;
  readonly errors?: readonly string[];
  readonly modelUsage?: Readonly<Record<string, ClaudeModelUsage>>;
}

/** A request the CLI makes of its host (with `--permission-prompt-tool stdio`: `can_use_tool`). */
export interface ClaudeControlRequest {
  readonly type: 'control_request';
  readonly request_id: string;
  readonly request: { readonly subtype: string; readonly tool_name?: string; readonly input?: unknown };
}

/** The host's answer to one `control_request`, written as one line on stdin. */
export interface ClaudeControlResponse {
  readonly type: 'control_response';
  readonly response:
    | { readonly subtype: 'success'; readonly request_id: string; readonly response: Readonly<Record<string, unknown>> }
    | { readonly subtype: 'error'; readonly request_id: string; readonly error: string };
}
