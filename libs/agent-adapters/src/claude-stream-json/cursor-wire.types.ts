// The parts of Cursor agent's `-p --output-format stream-json` events that differ from Claude's.
// Shapes from Cursor's output-format reference (cursor.com/docs/cli/reference/output-format) and
// frames recorded from cursor-agent 2026.08.x by public integrations (see __fixtures__/cursor-*).

/** One tool call, keyed by its kind: `{ shellToolCall: { args, result? } }`, `{ editToolCall: ... }`. */
export interface CursorToolCallBody {
  readonly args?: unknown;
  /** `{ success: {...} }`, `{ failure: {...} }`, `{ error: {...} }` or `{ rejected: {...} }`; absent while started. */
  readonly result?: Readonly<Record<string, unknown>>;
}

export interface CursorToolCallEvent {
  readonly type: 'tool_call';
  /** `started` or `completed`. */
  readonly subtype: string;
  /** May contain a newline (`call-...\nfc_...`); used as is. */
  readonly call_id: string;
  readonly tool_call: Readonly<Record<string, unknown>>;
  readonly session_id?: string;
}

/** Reasoning streamed as `delta` pieces and closed by `completed`. */
export interface CursorThinkingEvent {
  readonly type: 'thinking';
  /** `delta` or `completed`. */
  readonly subtype: string;
  readonly text?: string;
  readonly session_id?: string;
}
