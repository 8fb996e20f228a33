// The parts of GitHub Copilot CLI's `--output-format json` stdout this adapter reads (CLI 1.0.102).
// Every line is one session event envelope `{ type, data, id, timestamp, parentId, ephemeral? }`
// (schema: the package's `schemas/session-events.schema.json` and
// `copilot-sdk/generated/session-events.d.ts`), except the closing `result` line, which has no
// `data`. Everything else on an event is ignored.

export interface CopilotEnvelope<Type extends string, Data> {
  readonly type: Type;
  readonly data: Data;
  readonly id?: string;
  readonly timestamp?: string;
  readonly parentId?: string | null;
  /** Transient events, not written to the session's `events.jsonl`. */
  readonly ephemeral?: boolean;
  /** Set on events from a sub-agent. */
  readonly agentId?: string;
}

/** Documented; not printed on stdout by 1.0.102 (the session id arrives on `result`). */
export type CopilotSessionStartEvent = CopilotEnvelope<'session.start' | 'session.resume', { readonly sessionId?: string; readonly selectedModel?: string }>;

export interface CopilotToolRequest {
  readonly toolCallId: string;
  readonly name: string;
  readonly arguments?: unknown;
}
export type CopilotAssistantMessageEvent = CopilotEnvelope<
  'assistant.message',
  {
    readonly messageId?: string;
    readonly model?: string;
    /** Empty when the turn only requests tools. */
    readonly content: string;
    readonly toolRequests?: readonly CopilotToolRequest[];
    /** Thinking that came along with the message, when the model produced any. */
    readonly reasoningText?: string;
  }
>;

export type CopilotReasoningEvent = CopilotEnvelope<'assistant.reasoning', { readonly reasoningId: string; readonly content: string }>;

export type CopilotToolExecutionStartEvent = CopilotEnvelope<
  'tool.execution_start',
  { readonly toolCallId: string; readonly toolName: string; readonly arguments?: unknown }
>;

export type CopilotToolExecutionCompleteEvent = CopilotEnvelope<
  'tool.execution_complete',
  {
    readonly toolCallId: string;
    readonly success: boolean;
    readonly result?: { readonly content?: string; readonly detailedContent?: string };
    readonly error?: { readonly code?: string; readonly message: string };
  }
>;

/** Per model call; documented in the schema, absent from 1.0.102's stdout in BYOK runs. */
export type CopilotAssistantUsageEvent = CopilotEnvelope<
  'assistant.usage',
  {
    readonly model: string;
    /**
     * Who serves the model, as `session.usage_record` and `model.call_failure` name it in 1.0.102
     * (`other` for a BYOK provider it does not know).
     */
    readonly modelProvider?: string;
    readonly inputTokens?: number;
    readonly outputTokens?: number;
    readonly cacheReadTokens?: number;
    readonly cacheWriteTokens?: number;
  }
>;

export type CopilotSessionErrorEvent = CopilotEnvelope<
  'session.error',
  { readonly errorType: string; readonly message: string; readonly statusCode?: number; readonly errorCode?: string }
>;

/** The run was interrupted (SIGINT / SIGTERM); a `result` with `exitCode: 0` may still follow. */
export type CopilotAbortEvent = CopilotEnvelope<'abort', { readonly reason?: string }>;

export type CopilotInfoEvent = CopilotEnvelope<'session.info' | 'session.warning', { readonly message?: string; readonly infoType?: string; readonly warningType?: string }>;

/** The last stdout line of a prompt-mode run. */
export interface CopilotResultEvent {
  readonly type: 'result';
  readonly sessionId?: string;
  /** The process's own exit code: 1 after a `session.error`. */
  readonly exitCode?: number;
  readonly usage?: { readonly premiumRequests?: number; readonly totalApiDurationMs?: number; readonly sessionDurationMs?: number };
}

/**
 * The file written by `--usage-output-file`: the session's accounting snapshot, whole-session totals
 * (a resumed run's file still counts the earlier runs).
 */
export interface CopilotUsageFile {
  readonly modelMetrics?: Readonly<
    Record<
      string,
      {
        readonly usage?: {
          readonly inputTokens?: number;
          readonly outputTokens?: number;
          readonly cacheReadTokens?: number;
          readonly cacheWriteTokens?: number;
        };
      }
    >
  >;
  /** The same counts per provider and model; `provider` is null for a BYOK provider (1.0.102). */
  readonly providerModelMetrics?: ReadonlyArray<{ readonly provider?: string | null; readonly modelId?: string }>;
}

/**
 * The last event a run appends to `session-state/<id>/events.jsonl`; its snapshot is where a resumed
 * run's accounting starts from.
 */
export type CopilotSessionShutdownEvent = CopilotEnvelope<'session.shutdown', { readonly accountingSnapshot?: CopilotUsageFile }>;
