// The parts of Antigravity CLI (`agy`) print mode this adapter reads. Sources, all public:
// - `--output-format text|json|stream-json` and the stream-json events `init`, `step_update` (with a
//   closed `step_type` vocabulary and `tool_info`) and `result` (with `usage` incl.
//   `cache_read_tokens`): release notes of google-antigravity/antigravity-cli 1.1.8.
// - The envelope (`{"event": "<name>", "<name>": {...}}`, `conversation_id` top-level on `init`) and
//   the step fields: a stream captured from agy 1.1.17 in TianZuo555/pi-tian-extensions, confirmed
//   for 1.1.27 in kamp-us/phoenix#8203; result status `SUCCESS` from agy 1.1.22 on, `OK` before,
//   failures `ERROR`, `FAILURE`, `CANCELLED`, `TIMEOUT` (same sources).
// - Plain text stdout before that, and the conversation id only in the `--log-file` glog line
//   `printmode.go:…] Print mode: conversation=<uuid>, sending message`: multica-ai/multica
//   `server/pkg/agent/antigravity.go`.
// Our fixtures are written in these shapes; none was recorded from agy here.

export const ANTIGRAVITY_ADAPTER_ID = 'antigravity-json';

export interface AntigravityUsage {
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly thinking_tokens?: number;
  readonly cache_read_tokens?: number;
  readonly total_tokens?: number;
}

export interface AntigravityToolInfo {
  readonly name?: string;
  readonly parameters?: unknown;
  readonly output?: string;
}

/** One step of the conversation, streamed as it changes state (`ACTIVE`, then `DONE` or `ERROR`). */
export interface AntigravityStepUpdate {
  readonly conversation_id?: string;
  readonly step_index?: number;
  readonly state?: string;
  /** `user_input`, `system_message`, `agent_response`, `tool`, `checkpoint`, ...; a closing update may omit it. */
  readonly step_type?: string;
  readonly text_delta?: string;
  readonly tool_name?: string;
  readonly tool_info?: AntigravityToolInfo;
  readonly output?: string;
  readonly error?: { readonly type?: string; readonly message?: string };
  readonly duration_seconds?: number;
  readonly usage?: AntigravityUsage;
}

export interface AntigravityResult {
  readonly conversation_id?: string;
  readonly status?: string;
  readonly response?: string;
  /** A string in the captures; an object is read too. */
  readonly error?: string | { readonly message?: string };
  readonly num_turns?: number;
  readonly duration_seconds?: number;
  readonly usage?: AntigravityUsage;
}

export interface AntigravityInitEvent {
  readonly event: 'init';
  readonly conversation_id?: string;
  readonly init?: { readonly model?: string; readonly cwd?: string; readonly tools?: readonly string[]; readonly permission_mode?: string };
}
export interface AntigravityStepUpdateEvent {
  readonly event: 'step_update';
  readonly step_update?: AntigravityStepUpdate;
}
export interface AntigravityResultEvent {
  readonly event: 'result';
  readonly result?: AntigravityResult;
}

export type AntigravityStreamEvent = AntigravityInitEvent | AntigravityStepUpdateEvent | AntigravityResultEvent;
