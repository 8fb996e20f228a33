// The parts of Claude Code's `--output-format stream-json` events this adapter reads (CLI 2.1.x),
// plus the fields its relatives add (Qwen Code 0.15, CodeBuddy, Cursor agent; see cursor-wire.types).
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
/** Per-call usage on an `assistant` event (Anthropic field names; Qwen Code uses them too). */
export interface ClaudeMessageUsage {
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly cache_read_input_tokens?: number;
  readonly cache_creation_input_tokens?: number;
}
export interface ClaudeAssistantEvent {
  readonly type: 'assistant';
  readonly session_id?: string;
  readonly message: { readonly id?: string; readonly model?: string; readonly content: readonly ClaudeContentBlock[]; readonly usage?: ClaudeMessageUsage };
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
  /** Qwen Code's failure description. */
  readonly error?: { readonly message?: string };
  readonly modelUsage?: Readonly<Record<string, ClaudeModelUsage>>;
  /** Without `modelUsage`: Anthropic names (Qwen Code, CodeBuddy) or camelCase ones (Cursor agent). */
  readonly usage?: ClaudeMessageUsage & ClaudeModelUsage & { readonly cacheReadTokens?: number; readonly cacheWriteTokens?: number };
  /** CodeBuddy may name the model on the result itself. */
  readonly model?: string;
}

/** CodeBuddy's own diagnostic line. */
export interface CodeBuddyLogEvent {
  readonly type: 'log';
  readonly log?: { readonly level?: string; readonly message?: string };
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
