// The parts of `opencode run --format json` events this adapter reads (OpenCode 1.x; DevEco Code
// and CodeArts Agent print the same shapes). One JSON object per line, each with `type`,
// `timestamp` and the run's `sessionID`; the payload is a message `part` (or `error`). Everything
// else on an event is ignored; an event of an unknown type is reported, not dropped.

export interface OpenCodeTokens {
  readonly input?: number;
  /** Since OpenCode 1.3.16 without reasoning (reported apart); before, reasoning was included. */
  readonly output?: number;
  readonly reasoning?: number;
  readonly total?: number;
  readonly cache?: { readonly read?: number; readonly write?: number };
}

export interface OpenCodeToolState {
  /** `tool_use` is only printed once the call is over: `completed` or `error`. */
  readonly status: string;
  readonly input?: unknown;
  readonly output?: unknown;
  readonly error?: string;
  readonly title?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface OpenCodePart {
  readonly id?: string;
  readonly type?: string;
  readonly sessionID?: string;
  readonly messageID?: string;
  /** `text` and `reasoning` parts. */
  readonly text?: string;
  /** `tool` parts. */
  readonly tool?: string;
  readonly callID?: string;
  readonly state?: OpenCodeToolState;
  /** Provider-executed tools need no further model step. */
  readonly metadata?: { readonly providerExecuted?: boolean };
  /** `step-finish` parts: the finish reason (`stop`, `tool-calls`, `length`, `unknown`, ...). */
  readonly reason?: string;
  readonly tokens?: OpenCodeTokens;
  /** `step-finish` parts: USD. */
  readonly cost?: number;
}

export interface OpenCodeError {
  /** `APIError`, `ProviderAuthError`, `UnknownError`, `MessageAbortedError`, ... */
  readonly name?: string;
  readonly data?: { readonly message?: string; readonly statusCode?: number; readonly isRetryable?: boolean };
}

export type OpenCodeEventType = 'step_start' | 'step_finish' | 'text' | 'reasoning' | 'tool_use' | 'error' | 'done';

export interface OpenCodeEvent {
  readonly type: string;
  readonly timestamp?: number;
  readonly sessionID?: string;
  readonly part?: OpenCodePart;
  /** `error` events. */
  readonly error?: OpenCodeError;
  /** `done` events (newer releases print one when the session goes idle without an error). */
  readonly reason?: string;
  readonly rejected?: readonly string[];
}
