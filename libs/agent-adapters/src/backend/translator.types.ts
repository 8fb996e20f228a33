import type { AgentMessage, TokenUsage } from '@switchyard/contracts';
import type { AgentRunErrorCode } from '../run-errors/agent-run-error.codes';

/** What a translator reports when the CLI says the run is over. */
export interface TranslatorResult {
  readonly status: 'completed' | 'failed';
  /** The final answer; when omitted, the last `text` message emitted stands in. */
  readonly output?: string;
  /** The CLI's own failure description, for `failed`. */
  readonly errorMessage?: string;
  /** A more precise code than `cli_reported_failure` for `failed`, when the adapter knows one. */
  readonly errorCode?: AgentRunErrorCode;
}

/**
 * Everything a protocol translator may do. Messages go to the session stream; facts feed the final
 * result and the watchdogs. Translators stay pure: no process, no timers, no I/O.
 */
export interface TranslatorContext {
  /** `tool-use` and `tool-result` also open and close the tool call for the watchdogs. */
  emit(message: AgentMessage): void;
  reportSessionId(sessionId: string): void;
  /** The latest total for one model; a later report for the same model replaces it. */
  reportUsage(usage: TokenUsage): void;
  reportResult(result: TranslatorResult): void;
  reportResumeRejected(): void;
  /** For tool activity that has no `tool-use` message (a permission wait, a sub-agent, ...). */
  markToolStarted(callId: string): void;
  markToolFinished(callId: string): void;
  /** A line that parsed but was not a known native event: counted and surfaced, never dropped. */
  reportMalformed(reason: string, preview: string): void;
}

/** Receives one native event: a parsed JSON value (`json` lines) or the raw line (`text` lines). */
export type Translator = (event: unknown) => void;

export type TranslatorFactory = (context: TranslatorContext) => Translator;

/** How stdout lines reach the translator. */
export type LineFormat = 'json' | 'text';
