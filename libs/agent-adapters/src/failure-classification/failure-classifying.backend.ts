import type { AgentMessage } from '@switchyard/contracts';
import type { AgentRunResult, AgentSession, Backend } from '../backend/backend.types';
import { AGENT_RUN_ERROR_CODES } from '../run-errors/agent-run-error.codes';
import { errorTextCollector, type FailureReading } from './failure-evidence';

/**
 * The family's backend, whose failed results carry the provider's reason (`rate_limited`,
 * `context_overflow`, ...) instead of "the CLI failed". The result is classified when first read:
 * the daemon reads it after the message stream ended, so every error the run printed is seen.
 */
export function withFailureClassification(backend: Backend, reading: FailureReading): Backend {
  return {
    execute: async (prompt, options) => classifyingSession(await backend.execute(prompt, options), reading),
  };
}

function classifyingSession(session: AgentSession, reading: FailureReading): AgentSession {
  const collector = errorTextCollector();
  let classified: Promise<AgentRunResult> | undefined;
  return {
    ...session,
    cancel: () => session.cancel(),
    messages: passThrough(session.messages, collector.add),
    get result() {
      classified ??= session.result.then((result) => classifiedResult(result, reading, collector.texts));
      return classified;
    },
  };
}

async function* passThrough(messages: AsyncIterable<AgentMessage>, observe: (message: AgentMessage) => void): AsyncGenerator<AgentMessage> {
  for await (const message of messages) {
    observe(message);
    yield message;
  }
}

/** A failed result with the provider's reason as its code; the adapter's message stays, the clue is added. */
export function classifiedResult(given: AgentRunResult, reading: FailureReading, errorTexts: readonly string[]): AgentRunResult {
  const result = unmaskedFailure(given, reading.failedOutput);
  const { error } = result;
  if (result.status !== 'failed' || !error) return result;
  const failure = reading.classify({ code: error.code, message: error.message, stderrTail: error.stderrTail, errorTexts, exitCode: result.exitCode });
  if (!failure) return result;
  const message = error.message.includes(failure.clue) ? error.message : `${error.message} (${failure.clue})`;
  return { ...result, error: { ...error, code: failure.code, message, ...(failure.retryAfterMs !== null ? { retryAfterMs: failure.retryAfterMs } : {}) } };
}

/** A "completed" run whose final text is the CLI's error report failed: its work was never done. */
function unmaskedFailure(result: AgentRunResult, failedOutput: RegExp | undefined): AgentRunResult {
  if (result.status !== 'completed' || !failedOutput?.test(result.output)) return result;
  return { ...result, status: 'failed', error: { code: AGENT_RUN_ERROR_CODES.cliReportedFailure, message: result.output, stderrTail: '' } };
}
