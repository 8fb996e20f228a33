import { AGENT_RUN_ERROR_CODES, type AgentRunErrorCode } from '../run-errors/agent-run-error.codes';
import type { AgentRunResult } from '../backend/backend.types';
import type { OpenCodeRunVerdict } from './opencode-event.translator';

/** Failures that only say "no result event came", which OpenCode never prints. */
const NO_RESULT_CODES: ReadonlySet<AgentRunErrorCode> = new Set([
  AGENT_RUN_ERROR_CODES.cliExitedWithoutResult,
  AGENT_RUN_ERROR_CODES.malformedOutput,
  AGENT_RUN_ERROR_CODES.outputLineTooLong,
]);

/**
 * Decides a finished OpenCode run at exit. OpenCode 1.18 prints no result event, so the shared
 * session reports such a run as exited without a result; it counts as `completed` when the CLI
 * exited 0 on its own and the stream shows a finished run (see `OpenCodeRunVerdict`). Unreadable
 * lines stay in the diagnostics. Everything else (errors, cancel, timeouts, rejected resumes,
 * non-zero exits, a `done` event already reported) is left as the session decided.
 */
export function settleOpenCodeRun(result: AgentRunResult, verdict: OpenCodeRunVerdict): AgentRunResult {
  if (result.status !== 'failed' || !result.error || !NO_RESULT_CODES.has(result.error.code)) return result;
  if (result.exitCode !== 0 || result.exitSignal !== null) return result;
  if (verdict.finished) {
    const { error: _error, ...completed } = result;
    return { ...completed, status: 'completed' };
  }
  if (result.error.code !== AGENT_RUN_ERROR_CODES.cliExitedWithoutResult) return result;
  return { ...result, error: { ...result.error, message: `the CLI exited without finishing the run: ${verdict.reason ?? 'no finished step'}` } };
}
