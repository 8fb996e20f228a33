import { startAgentProcess, type AgentProcess, type AgentProcessExit } from '../runner/agent-process.runner';
import { createActivityWatchdog, type WatchdogClock } from '../runner/activity.watchdog';
import type { StderrTailOptions } from '../runner/stderr-tail.buffer';
import { PROMPT_UNDELIVERED_NOTE } from './adapter-notes';
import { createAgentMessageQueue } from './agent-message.queue';
import type { AgentRunResult, AgentRunTimeouts, AgentSession, BackendExecuteOptions } from './backend.types';
import { assembleRunResult, type RunFacts } from './run-result.assembler';
import { createLineReader, createSessionContext, newSessionState, reportOversizedLine, type SessionState } from './session-translator.context';
import type { LineFormat, TranslatorContext, TranslatorFactory } from './translator.types';

export const DEFAULT_AGENT_RUN_TIMEOUTS: Required<AgentRunTimeouts> = {
  idleMs: 5 * 60_000,
  toolBudgetMs: 30 * 60_000,
  totalMs: 4 * 60 * 60_000,
  exitGraceMs: 5_000,
};

/** What a protocol may do with the running CLI besides reading it. */
export type AgentProcessInput = Pick<AgentProcess, 'writeStdin' | 'endStdin'>;

export interface AgentSessionCapabilities {
  readonly sendUserMessage?: (text: string) => Promise<void>;
  readonly interrupt?: () => Promise<void>;
}

export interface CreateAgentSessionOptions {
  readonly run: BackendExecuteOptions;
  /** The protocol's own arguments, after the profile's `launchArgs`. Never the prompt. */
  readonly adapterArgs: readonly string[];
  readonly createTranslator: TranslatorFactory;
  readonly lineFormat?: LineFormat;
  /** The protocol's opening move, typically writing the prompt to stdin. */
  readonly start?: (input: AgentProcessInput) => void | Promise<void>;
  readonly capabilities?: (input: AgentProcessInput) => AgentSessionCapabilities;
  /** Close stdin once the result is reported, which is how stdin-driven CLIs learn to exit. */
  readonly endStdinOnResult?: boolean;
  readonly maxLineBytes?: number;
  readonly killGraceMs?: number;
  readonly stderrTail?: StderrTailOptions;
  readonly messageHighWaterMark?: number;
  readonly clock?: WatchdogClock;
  /**
   * For CLIs that refuse a resume only in prose (stderr, or a plain-text stdout line) and exit:
   * when a resume was asked and this matches, the run counts as a rejected resume.
   */
  readonly resumeRejectedPattern?: RegExp;
}

/**
 * Runs one CLI process through a protocol translator and exposes it as an `AgentSession`: the
 * protocol-neutral part every backend shares (process, watchdogs, diagnostics, result).
 */
export function createAgentSession(options: CreateAgentSessionOptions): AgentSession {
  const timeouts = { ...DEFAULT_AGENT_RUN_TIMEOUTS, ...options.run.timeouts };
  const startedAt = performance.now();
  const state = newSessionState();
  const queue = createAgentMessageQueue({
    ...(options.messageHighWaterMark !== undefined ? { highWaterMark: options.messageHighWaterMark } : {}),
    onPressure: (paused) => {
      if (paused) agentProcess.pauseStdout();
      else agentProcess.resumeStdout();
      watchdog.setHeld(paused);
    },
  });
  const watchdog = createActivityWatchdog({
    budgets: timeouts,
    ...(options.clock ? { clock: options.clock } : {}),
    onFire: (firing) => {
      if (firing !== 'exit_grace_elapsed') state.endedBy ??= firing;
      void agentProcess.kill(firing);
    },
  });
  const context = createSessionContext({ state, queue, watchdog, endStdinOnResult: options.endStdinOnResult ?? true, endStdin: () => agentProcess.endStdin() });
  const translate = options.createTranslator(context);
  const agentProcess = startAgentProcess({
    executable: options.run.executable,
    args: [...(options.run.launchArgs ?? []), ...options.adapterArgs],
    cwd: options.run.cwd,
    env: options.run.env,
    onLine: createLineReader({ lineFormat: options.lineFormat ?? 'json', translate, context, state }),
    onOversizedLine: (line) => reportOversizedLine({ line, context, state }),
    onStdoutActivity: () => watchdog.recordActivity(),
    ...(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {}),
    ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
    ...(options.stderrTail ? { stderrTail: options.stderrTail } : {}),
    ...(options.run.containment ? { containment: options.run.containment } : {}),
  });
  const input: AgentProcessInput = { writeStdin: (text) => agentProcess.writeStdin(text), endStdin: () => agentProcess.endStdin() };

  const stopWith = (reason: 'cancel' | 'abort'): Promise<void> => {
    if (!state.finished && !state.reportedResult) state.endedBy ??= reason;
    return agentProcess.kill(reason).then(() => undefined);
  };
  const onAbort = (): void => void stopWith('abort');
  if (options.run.signal?.aborted) onAbort();
  else options.run.signal?.addEventListener('abort', onAbort, { once: true });

  watchdog.start();
  makeOpeningMove({ start: options.start, input, context });
  const result = agentProcess.exited.then((exit) => {
    state.finished = true;
    watchdog.stop();
    options.run.signal?.removeEventListener('abort', onAbort);
    queue.close();
    return settleRun({ exit, state, options, durationMs: Math.round(performance.now() - startedAt) });
  });

  return { messages: queue.iterable, result, ...options.capabilities?.(input), cancel: () => stopWith('cancel') };
}

/** The protocol's opening move (the prompt, usually); a failure is said in the timeline, the exit tells the rest. */
function makeOpeningMove(options: { readonly start: CreateAgentSessionOptions['start']; readonly input: AgentProcessInput; readonly context: TranslatorContext }): void {
  Promise.resolve()
    .then(() => options.start?.(options.input))
    .catch((error: unknown) => {
      // Usually the CLI died before reading; its exit is reported by the result.
      options.context.emit({ type: 'log', level: 'warn', text: `${PROMPT_UNDELIVERED_NOTE}: ${error instanceof Error ? error.message : String(error)}` });
    });
}

/** The run's result from what the translator reported and how the process ended. */
function settleRun(input: { readonly exit: AgentProcessExit; readonly state: SessionState; readonly options: CreateAgentSessionOptions; readonly durationMs: number }): AgentRunResult {
  const { exit, state, options } = input;
  const pattern = options.resumeRejectedPattern;
  if (pattern && options.run.resumeSessionId && [exit.stderrTail, ...state.unreadableLines].some((text) => pattern.test(text))) state.resumeRejected = true;
  const facts: RunFacts = {
    ...(state.sessionId !== undefined ? { sessionId: state.sessionId } : {}),
    usageByModel: state.usageByModel,
    ...(state.reportedResult ? { result: state.reportedResult } : {}),
    ...(state.lastText !== undefined ? { lastText: state.lastText } : {}),
    resumeRejected: state.resumeRejected,
    toolRan: state.toolRan,
    ...(state.endedBy ? { endedBy: state.endedBy } : {}),
    diagnostics: { ...state.diagnostics },
  };
  return assembleRunResult({ facts, exit, durationMs: input.durationMs });
}
