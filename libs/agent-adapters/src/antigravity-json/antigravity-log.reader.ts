import { AGENT_RUN_ERROR_CODES } from '../run-errors/agent-run-error.codes';
import type { AgentRunResult } from '../backend/backend.types';
import type { AntigravityOutputMode } from './antigravity-cli.version';

// Marker lines of agy's glog `--log-file`, as the public multica client reads them
// (multica-ai/multica `server/pkg/agent/antigravity.go`), e.g.
//   I0528 13:36:23.318877 73304 printmode.go:130] Print mode: conversation=<uuid>, sending message
//   E0623 17:17:59.017212 65926 printmode.go:289] Print mode: timed out after 100 polls (printed=3)
const CONVERSATION = /conversation=([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})/g;
const PRINT_TIMED_OUT = /Print mode: timed out after \d+ polls/;
const PROVIDER_ERROR = /agent executor error:\s*(.+)/g;

/** What a run's log file says that stdout may not. */
export interface AntigravityLogFacts {
  /** The conversation of this run (the last one logged: a turn logs it once per message). */
  readonly conversationId?: string;
  /** agy's own `--print-timeout` ran out; it then prints an error line and still exits 0. */
  readonly printTimedOut: boolean;
  /** The last model/provider failure agy logged, which it may not show on stdout or in its exit code. */
  readonly providerError?: string;
}

export function parseAntigravityLog(text: string): AntigravityLogFacts {
  const conversationId = [...text.matchAll(CONVERSATION)].at(-1)?.[1];
  const providerError = [...text.matchAll(PROVIDER_ERROR)].at(-1)?.[1]?.trim();
  return {
    ...(conversationId ? { conversationId } : {}),
    printTimedOut: PRINT_TIMED_OUT.test(text),
    ...(providerError ? { providerError } : {}),
  };
}

export interface SettleAntigravityRunInput {
  readonly result: AgentRunResult;
  readonly log: AntigravityLogFacts;
  readonly mode: AntigravityOutputMode;
  /** The `--print-timeout` value passed, for the message of a print timeout. */
  readonly printTimeout: string;
  /** Plain-text mode: every stdout line of the run, the answer. */
  readonly stdoutText: string;
}

/**
 * The run result once agy is gone and its log is read: the session id from the log when stdout did
 * not carry it, and for a clean exit without a result event (all plain-text mode has) the log
 * decides: a print timeout, a provider error, or else (plain text) a completed run.
 */
export function settleAntigravityRun(input: SettleAntigravityRunInput): AgentRunResult {
  const { log } = input;
  const sessionId = input.result.sessionId ?? log.conversationId;
  const { error, ...withoutError } = input.result;
  const settled: AgentRunResult = { ...input.result, ...(sessionId ? { sessionId } : {}) };
  if (error?.code !== AGENT_RUN_ERROR_CODES.cliExitedWithoutResult) return settled;

  const failure = (status: AgentRunResult['status'], code: NonNullable<AgentRunResult['error']>['code'], message: string): AgentRunResult => ({
    ...settled,
    status,
    error: { code, message, stderrTail: error.stderrTail },
  });
  if (log.printTimedOut) {
    return failure('timeout', AGENT_RUN_ERROR_CODES.totalTimeout, `agy's --print-timeout (${input.printTimeout}) ran out before the agent answered`);
  }
  if (log.providerError) return failure('failed', AGENT_RUN_ERROR_CODES.cliReportedFailure, `agy provider error: ${log.providerError}`);
  if (input.mode === 'stream-json') return settled;
  return { ...withoutError, ...(sessionId ? { sessionId } : {}), status: 'completed', output: input.stdoutText };
}
