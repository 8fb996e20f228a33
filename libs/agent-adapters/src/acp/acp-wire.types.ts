// The Agent Client Protocol types (ACP v1) come from the official SDK, `@agentclientprotocol/sdk`,
// generated from the pinned schema. This file adds only what the SDK does not describe: a frame
// tagged with its sender, and Gemini CLI's usage report in the prompt response's `_meta`.
import type { AnyMessage, PromptResponse } from '@agentclientprotocol/sdk';

/** One frame of the conversation, tagged with its sender: what the translator reads and fixtures hold. */
export interface AcpTrafficEvent {
  readonly from: 'client' | 'agent';
  readonly frame: AnyMessage;
}

/** A `session/prompt` response as Gemini CLI sends it, usage included. */
export type AcpPromptResponse = Omit<PromptResponse, '_meta'> & {
  readonly _meta?: { readonly quota?: AcpQuotaMeta; readonly [key: string]: unknown } | null;
};
/** Gemini CLI's usage report in the prompt response's `_meta`. */
export interface AcpQuotaMeta {
  readonly token_count?: AcpTokenCount;
  readonly model_usage?: ReadonlyArray<{ readonly model: string; readonly token_count?: AcpTokenCount }>;
}
export interface AcpTokenCount {
  readonly input_tokens?: number;
  readonly output_tokens?: number;
}
