// DSH's versioned JSONL protocol on stdio (`dsh --profile <p> --stdio`), as far as it is public.
// DSH itself is not published; these shapes come from the public client in multica-ai/multica
// (`server/pkg/agent/dsh.go`) and our reference notes on Multica's runtime. Nothing was
// recorded from a real DSH: where the client is silent (statuses, which frames carry
// `request_id`) the choice is ours and is said so where it is made.

export const DSH_ADAPTER_ID = 'dsh-jsonl';

/** The one protocol version this client speaks; any other `v` ends the run. */
export const DSH_PROTOCOL_VERSION = 1;

/**
 * The DSH profile (configured on the DSH side) a run asks for; Multica's client asks for `multica`,
 * Switchyard for its own name. A runtime profile may start DSH with another one.
 */
export const DSH_DEFAULT_PROFILE = 'switchyard';

/** Codes on the `error` messages this adapter emits; the run result names them in its message. */
export const DSH_ERROR_CODES = {
  protocolVersionUnsupported: 'dsh_protocol_version_unsupported',
  protocolError: 'dsh_protocol_error',
  resumeRejected: 'dsh_resume_rejected',
  runFailed: 'dsh_run_failed',
  invalidModel: 'dsh_invalid_model',
} as const;
export type DshErrorCode = (typeof DSH_ERROR_CODES)[keyof typeof DSH_ERROR_CODES];

/** `provider/model` as DSH's model catalog names it, split for the execute frame. */
export interface DshModelSelection {
  readonly provider: string;
  readonly id: string;
}

/** One MCP server DSH should connect for the request (DSH owns its MCP clients). */
export interface DshMcpServer {
  readonly name: string;
  readonly transport: 'stdio' | 'streamable-http';
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly url?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly tool_call_timeout_ms?: number;
}

// Client → DSH, one JSON object per stdin line.

export interface DshExecuteCommand {
  readonly v: typeof DSH_PROTOCOL_VERSION;
  readonly type: 'execute';
  readonly request_id: string;
  readonly cwd: string;
  readonly prompt: string;
  readonly resume_session_id?: string;
  readonly model?: DshModelSelection;
  readonly reasoning_effort?: string;
  readonly mcp_servers: readonly DshMcpServer[];
}

export interface DshCancelCommand {
  readonly v: typeof DSH_PROTOCOL_VERSION;
  readonly type: 'cancel';
  readonly request_id: string;
}

// DSH → client, one JSON object per stdout line. Every frame carries `v` and `type`; frames about
// the request carry its `request_id`, and `session_id` once DSH has a session.

interface DshFrameBase {
  readonly v: number;
  readonly type: string;
  readonly request_id?: string;
  readonly session_id?: string;
}

/** Sent once at start, before any request: the process is up and says which protocol it speaks. */
export interface DshReadyFrame extends DshFrameBase {
  readonly type: 'ready';
  readonly runtime?: string;
  readonly protocol_version?: number;
}
export interface DshSessionFrame extends DshFrameBase {
  readonly type: 'session';
  readonly resumed?: boolean;
  readonly resume_rejected?: boolean;
}
export interface DshContentFrame extends DshFrameBase {
  readonly type: 'text' | 'thinking';
  readonly content?: string;
}
export interface DshToolCallFrame extends DshFrameBase {
  readonly type: 'tool_call';
  readonly call_id?: string;
  readonly name?: string;
  /** The tool input as JSON text. */
  readonly arguments?: string;
}
export interface DshToolResultFrame extends DshFrameBase {
  readonly type: 'tool_result';
  readonly call_id?: string;
  readonly name?: string;
  readonly output?: string;
  readonly is_error?: boolean;
}
/** Tokens of one model call; the public client adds the frames of a request up per model. */
export interface DshUsageFrame extends DshFrameBase {
  readonly type: 'usage';
  readonly provider?: string;
  readonly model?: string;
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly cache_read_tokens?: number;
  readonly cache_write_tokens?: number;
}
export interface DshProtocolErrorFrame extends DshFrameBase {
  readonly type: 'protocol_error';
  readonly code?: string;
  readonly message?: string;
}
/** Terminal frame of a request. `status` as the public client passes it on: `completed`, `failed`, `cancelled`, ... */
export interface DshResultFrame extends DshFrameBase {
  readonly type: 'result';
  readonly status?: string;
  readonly output?: string;
  readonly stop_reason?: string;
  readonly resume_rejected?: boolean;
  readonly error?: { readonly code?: string; readonly message?: string };
}

export type DshFrame =
  | DshReadyFrame
  | DshSessionFrame
  | DshContentFrame
  | DshToolCallFrame
  | DshToolResultFrame
  | DshUsageFrame
  | DshProtocolErrorFrame
  | DshResultFrame;
