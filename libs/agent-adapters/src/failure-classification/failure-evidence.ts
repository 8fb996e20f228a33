import type { AgentMessage } from '@switchyard/contracts';
import { PROMPT_UNDELIVERED_NOTE } from '../backend/adapter-notes';
import type { AgentRunResult } from '../backend/backend.types';
import { AGENT_RUN_ERROR_CODES, type AgentRunErrorCode } from '../run-errors/agent-run-error.codes';

/** Most CLIs print a provider error once or twice; the first few say why. */
const KEPT_ERROR_TEXTS = 8;
const MAXIMUM_ERROR_TEXT_CHARACTERS = 2_000;

/** What a failed run left to read a provider's reason from. */
export interface FailureEvidence {
  /** The code the adapter gave the failure before classification. */
  readonly code: AgentRunErrorCode;
  readonly message: string;
  readonly stderrTail: string;
  /** The `error` messages (`<code>: <message>`) and warning logs the run streamed, in order (bounded). */
  readonly errorTexts: readonly string[];
  readonly exitCode: number | null;
}

/** Codes that say only "the CLI failed"; the others (timeouts, cancel, rejected resume, spawn) already say why. */
export const CLASSIFIABLE_ERROR_CODES: ReadonlySet<AgentRunErrorCode> = new Set([
  AGENT_RUN_ERROR_CODES.cliReportedFailure,
  AGENT_RUN_ERROR_CODES.cliExitedNonzero,
  AGENT_RUN_ERROR_CODES.cliExitedWithoutResult,
]);

export const PROVIDER_FAILURE_CODES = [
  AGENT_RUN_ERROR_CODES.contextOverflow,
  AGENT_RUN_ERROR_CODES.authFailed,
  AGENT_RUN_ERROR_CODES.rateLimited,
  AGENT_RUN_ERROR_CODES.providerNetwork,
  AGENT_RUN_ERROR_CODES.providerError,
  AGENT_RUN_ERROR_CODES.invalidRequest,
] as const satisfies readonly AgentRunErrorCode[];
export type ProviderFailureCode = (typeof PROVIDER_FAILURE_CODES)[number];

export interface ClassifiedFailure {
  readonly code: ProviderFailureCode;
  /** The text that gave the reason away, for the failure's message. */
  readonly clue: string;
  readonly retryAfterMs: number | null;
}

/** A family's reading of a failure: a provider reason, or undefined to keep the adapter's code. */
export type FailureClassifier = (evidence: FailureEvidence) => ClassifiedFailure | undefined;

/** How a family reads its failures: the classifier, and the final outputs that are a failure in disguise. */
export interface FailureReading {
  readonly classify: FailureClassifier;
  /** A CLI that reports a provider error as a successful result whose text is the error (Qwen Code's `[API Error: ...]`). */
  readonly failedOutput?: RegExp;
}

/** Evidence from a finished run and the messages it streamed. */
export function evidenceOf(input: { readonly result: AgentRunResult; readonly messages: readonly AgentMessage[] }): FailureEvidence {
  return {
    code: input.result.error?.code ?? AGENT_RUN_ERROR_CODES.cliReportedFailure,
    message: input.result.error?.message ?? '',
    stderrTail: input.result.error?.stderrTail ?? '',
    errorTexts: errorTextsOf(input.messages),
    exitCode: input.result.exitCode,
  };
}

/** Collects error texts as a run streams them: bounded in count and length. */
export function errorTextCollector(): { readonly add: (message: AgentMessage) => void; readonly texts: string[] } {
  const texts: string[] = [];
  return {
    texts,
    add: (message) => {
      const text = message.type === 'error' ? `${message.code}: ${message.message}` : message.type === 'log' && (message.level === 'warn' || message.level === 'error') ? message.text : undefined;
      // Our own note raced the CLI's exit, and its "EPIPE" read as a provider network error.
      if (text === undefined || text.startsWith(PROMPT_UNDELIVERED_NOTE) || texts.length >= KEPT_ERROR_TEXTS) return;
      texts.push(text.slice(0, MAXIMUM_ERROR_TEXT_CHARACTERS));
    },
  };
}

function errorTextsOf(messages: readonly AgentMessage[]): string[] {
  const collector = errorTextCollector();
  for (const message of messages) collector.add(message);
  return collector.texts;
}
