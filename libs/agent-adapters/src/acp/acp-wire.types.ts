// The parts of the Agent Client Protocol (ACP, protocol version 1) this adapter reads and writes,
// as Gemini CLI 0.61 speaks it over stdio. Everything else on a frame is ignored; a frame of an
// unknown shape is reported, not dropped.

export const ACP_PROTOCOL_VERSION = 1;

export type { JsonRpcErrorObject, JsonRpcFrame, JsonRpcId, JsonRpcNotificationFrame, JsonRpcRequestFrame, JsonRpcResponseFrame } from '../json-rpc/json-rpc.types';
import type { JsonRpcFrame } from '../json-rpc/json-rpc.types';

/** One frame of the conversation, tagged with its sender: what the translator reads and fixtures hold. */
export interface AcpTrafficEvent {
  readonly from: 'client' | 'agent';
  readonly frame: JsonRpcFrame;
}

export interface AcpAgentCapabilities {
  readonly loadSession?: boolean;
  readonly sessionCapabilities?: { readonly resume?: unknown };
}
export interface AcpInitializeResult {
  readonly protocolVersion: number;
  readonly agentCapabilities?: AcpAgentCapabilities;
  readonly agentInfo?: { readonly name?: string; readonly version?: string };
}
export interface AcpNewSessionResult {
  readonly sessionId: string;
}

export type AcpContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image' | 'audio' | 'resource' | 'resource_link'; readonly [key: string]: unknown };

export type AcpToolCallContent =
  | { readonly type: 'content'; readonly content: AcpContentBlock }
  | { readonly type: 'diff'; readonly path: string; readonly oldText?: string | null; readonly newText: string }
  | { readonly type: 'terminal'; readonly terminalId: string };

export type AcpToolCallStatus = 'pending' | 'in_progress' | 'completed' | 'failed';

export interface AcpToolCallFields {
  readonly toolCallId: string;
  readonly title?: string;
  /** read, edit, delete, move, search, execute, think, fetch, switch_mode, other. */
  readonly kind?: string;
  readonly status?: AcpToolCallStatus;
  readonly content?: readonly AcpToolCallContent[] | null;
  readonly locations?: ReadonlyArray<{ readonly path: string; readonly line?: number | null }> | null;
  readonly rawInput?: unknown;
  readonly rawOutput?: unknown;
}

export type AcpSessionUpdate =
  | { readonly sessionUpdate: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk'; readonly content: AcpContentBlock }
  | ({ readonly sessionUpdate: 'tool_call' | 'tool_call_update' } & AcpToolCallFields)
  | { readonly sessionUpdate: string; readonly [key: string]: unknown };

export interface AcpSessionNotification {
  readonly sessionId: string;
  readonly update: AcpSessionUpdate;
}

export interface AcpPermissionOption {
  readonly optionId: string;
  readonly name?: string;
  readonly kind: 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';
}
export interface AcpRequestPermissionParams {
  readonly sessionId: string;
  readonly toolCall: AcpToolCallFields;
  readonly options: readonly AcpPermissionOption[];
}
export type AcpRequestPermissionResult = { readonly outcome: { readonly outcome: 'cancelled' } | { readonly outcome: 'selected'; readonly optionId: string } };

/** `end_turn`, `max_tokens`, `max_turn_requests`, `refusal`, `cancelled`. */
export interface AcpPromptResult {
  readonly stopReason: string;
  readonly _meta?: { readonly quota?: AcpQuotaMeta; readonly [key: string]: unknown };
}
/** Gemini CLI's usage report in the prompt response's `_meta`. */
export interface AcpQuotaMeta {
  readonly token_count?: AcpTokenCount;
  readonly model_usage?: ReadonlyArray<{ readonly model: string; readonly token_count?: AcpTokenCount }>;
}
export interface AcpTokenCount {
  readonly input_tokens?: number;
  readonly output_tokens?: number;
}
