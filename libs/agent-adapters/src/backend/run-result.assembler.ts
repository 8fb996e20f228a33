import type { TokenUsage } from '@switchyard/contracts';
import type { AgentProcessExit } from '../runner/agent-process.runner';
import { AGENT_RUN_ERROR_CODES, type AgentRunError, type AgentRunErrorCode, type WatchdogErrorCode } from '../run-errors/agent-run-error.codes';
import type { AgentRunDiagnostics, AgentRunResult, AgentRunStatus } from './backend.types';
import type { TranslatorResult } from './translator.types';

/** What the session learned during the run, from the translator, the watchdogs and the caller. */
export interface RunFacts {
  readonly sessionId?: string;
  readonly usageByModel: ReadonlyMap<string, TokenUsage>;
  readonly result?: TranslatorResult;
  readonly lastText?: string;
  readonly resumeRejected: boolean;
  readonly toolRan: boolean;
  /** Why the session itself ended the run, first reason wins. */
  readonly endedBy?: 'cancel' | 'abort' | WatchdogErrorCode;
  readonly diagnostics: AgentRunDiagnostics;
}

const WATCHDOG_MESSAGES: Record<WatchdogErrorCode, string> = {
  idle_timeout: 'the CLI produced no output for longer than the idle timeout',
  tool_timeout: 'a tool call stayed open without output for longer than the tool budget',
  total_timeout: 'the run exceeded its total time budget',
};

/** Turns the facts of a finished run and its process exit into the one result the caller sees. */
export function assembleRunResult(input: { facts: RunFacts; exit: AgentProcessExit; durationMs: number }): AgentRunResult {
  const { facts, exit } = input;
  const base: AgentRunResult = {
    status: 'completed',
    output: facts.result?.output ?? facts.lastText ?? '',
    durationMs: input.durationMs,
    ...(facts.sessionId !== undefined ? { sessionId: facts.sessionId } : {}),
    usage: [...facts.usageByModel.values()],
    resumeRejected: facts.resumeRejected,
    toolRan: facts.toolRan,
    exitCode: exit.exitCode,
    exitSignal: exit.signal,
    diagnostics: facts.diagnostics,
    ...(exit.containment ? { processSweep: exit.containment } : {}),
  };
  const failure = (status: AgentRunStatus, code: AgentRunErrorCode, message: string): AgentRunResult => ({
    ...base,
    status,
    error: { code, message, stderrTail: exit.stderrTail } satisfies AgentRunError,
  });

  // A result reported before the end stands, even if the CLI then had to be killed on its way out.
  if (facts.result?.status === 'completed') return base;
  if (facts.result?.status === 'failed') {
    return facts.resumeRejected
      ? failure('failed', AGENT_RUN_ERROR_CODES.resumeRejected, facts.result.errorMessage ?? 'the CLI rejected the session to resume')
      : failure('failed', facts.result.errorCode ?? AGENT_RUN_ERROR_CODES.cliReportedFailure, facts.result.errorMessage ?? 'the CLI reported a failed run');
  }
  if (facts.endedBy === 'cancel') return failure('cancelled', AGENT_RUN_ERROR_CODES.cancelled, 'the run was cancelled');
  if (facts.endedBy === 'abort') return failure('aborted', AGENT_RUN_ERROR_CODES.aborted, 'the run was aborted');
  if (facts.endedBy) return failure('timeout', facts.endedBy, WATCHDOG_MESSAGES[facts.endedBy]);
  if (exit.spawnError) return failure('failed', exit.spawnError.code, exit.spawnError.message);
  if (facts.resumeRejected) {
    return failure('failed', AGENT_RUN_ERROR_CODES.resumeRejected, 'the CLI rejected the session to resume');
  }
  if (exit.exitCode !== 0) {
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${String(exit.exitCode)}`;
    return failure('failed', AGENT_RUN_ERROR_CODES.cliExitedNonzero, `the CLI ${how} without a result`);
  }
  const { oversizedLines, malformedLines, invalidMessages } = facts.diagnostics;
  if (oversizedLines > 0) {
    return failure('failed', AGENT_RUN_ERROR_CODES.outputLineTooLong, `the CLI exited without a result; ${oversizedLines} output line(s) over the size cap were dropped`);
  }
  if (malformedLines > 0) {
    return failure('failed', AGENT_RUN_ERROR_CODES.malformedOutput, `the CLI exited without a result; ${malformedLines} output line(s) could not be read`);
  }
  // Only ever a reason when no result came: messages outside the contract do not fail a run by themselves.
  if (invalidMessages > 0) {
    return failure('failed', AGENT_RUN_ERROR_CODES.malformedOutput, `the CLI exited without a result; ${invalidMessages} message(s) did not fit the contract`);
  }
  return failure('failed', AGENT_RUN_ERROR_CODES.cliExitedWithoutResult, 'the CLI exited without reporting a result');
}
