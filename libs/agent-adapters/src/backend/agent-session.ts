import type { AgentMessage, TokenUsage } from '@switchyard/contracts';
import { startAgentProcess, type AgentProcess } from '../runner/agent-process.runner';
import { createActivityWatchdog, type WatchdogClock } from '../runner/activity.watchdog';
import type { OversizedLine } from '../runner/line-splitter';
import type { StderrTailOptions } from '../runner/stderr-tail.buffer';
import { guardAgentMessage, invalidReportMessage } from './agent-message.guard';
import { AGENT_RUN_ERROR_CODES } from './agent-run-error.codes';
import type { AgentRunTimeouts, AgentSession, BackendExecuteOptions } from './backend.types';
import { createAgentMessageQueue } from './agent-message.queue';
import { assembleRunResult, type RunFacts } from './run-result.assembler';
import { guardSessionId, guardTokenUsage, guardTranslatorResult } from './translator-facts.guard';
import type { LineFormat, TranslatorContext, TranslatorFactory, TranslatorResult } from './translator.types';

export const DEFAULT_AGENT_RUN_TIMEOUTS: Required<AgentRunTimeouts> = {
  idleMs: 5 * 60_000,
  toolBudgetMs: 30 * 60_000,
  totalMs: 4 * 60 * 60_000,
  exitGraceMs: 5_000,
};

const PREVIEW_CHARACTERS = 200;
/** Unreadable stdout lines kept for `resumeRejectedPattern`: CLIs print the refusal once, early. */
const KEPT_UNREADABLE_LINES = 20;

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

const preview = (text: string): string => (text.length > PREVIEW_CHARACTERS ? `${text.slice(0, PREVIEW_CHARACTERS)}…` : text);
/** `String` that cannot throw (an object without a prototype has no `toString`). */
const textOf = (value: unknown): string => {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
};

/**
 * Runs one CLI process through a protocol translator and exposes it as an `AgentSession`: the
 * protocol-neutral part every backend shares (process, watchdogs, diagnostics, result).
 */
export function createAgentSession(options: CreateAgentSessionOptions): AgentSession {
  const timeouts = { ...DEFAULT_AGENT_RUN_TIMEOUTS, ...options.run.timeouts };
  const startedAt = performance.now();
  const usageByModel = new Map<string, TokenUsage>();
  const diagnostics = { malformedLines: 0, oversizedLines: 0, blankLines: 0, invalidMessages: 0 };
  let sessionId: string | undefined;
  let reportedResult: TranslatorResult | undefined;
  let lastText: string | undefined;
  let resumeRejected = false;
  let toolRan = false;
  let endedBy: RunFacts['endedBy'];
  let finished = false;
  const unreadableLines: string[] = [];

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
      if (firing !== 'exit_grace_elapsed') endedBy ??= firing;
      void agentProcess.kill(firing);
    },
  });

  /** Every message passes the contract before it is queued, ours included; what fails is replaced. */
  const deliver = (candidate: AgentMessage): void => {
    const verdict = guardAgentMessage(candidate);
    if (verdict.kind !== 'valid') diagnostics.invalidMessages += 1;
    const message = verdict.kind === 'invalid' ? verdict.replacement : verdict.message;
    // Bookkeeping reads only checked messages: a `text: 42` never becomes the output.
    if (message.type === 'text') lastText = message.text;
    if (message.type === 'tool-use') context.markToolStarted(message.callId);
    if (message.type === 'tool-result') context.markToolFinished(message.callId);
    queue.push(message);
  };
  const reportInvalidFact = (what: string, problem: string): void => {
    diagnostics.invalidMessages += 1;
    queue.push(invalidReportMessage(what, problem));
  };

  const context: TranslatorContext = {
    emit: deliver,
    reportSessionId(value: string): void {
      const verdict = guardSessionId(value);
      if (verdict.kind === 'valid') sessionId = verdict.value;
      else reportInvalidFact('a session id', verdict.problem);
    },
    reportUsage(usage: TokenUsage): void {
      const verdict = guardTokenUsage(usage);
      if (verdict.kind === 'valid') usageByModel.set(`${verdict.value.provider ?? ''}\u0000${verdict.value.model}`, verdict.value);
      else reportInvalidFact('a usage report', verdict.problem);
    },
    reportResult(candidate: TranslatorResult): void {
      const { result, problems } = guardTranslatorResult(candidate);
      if (problems.length > 0) reportInvalidFact('part of the result', problems.join('; '));
      reportedResult = result;
      watchdog.resultSeen();
      if (options.endStdinOnResult ?? true) agentProcess.endStdin();
    },
    reportResumeRejected(): void {
      resumeRejected = true;
    },
    markToolStarted(callId: string): void {
      toolRan = true;
      watchdog.toolStarted(callId);
    },
    markToolFinished(callId: string): void {
      watchdog.toolFinished(callId);
    },
    reportMalformed(reason: string, line: string): void {
      diagnostics.malformedLines += 1;
      // Translators pass native values here too; a number must not break the diagnostic.
      const text = textOf(line);
      if (unreadableLines.length < KEPT_UNREADABLE_LINES) unreadableLines.push(text);
      deliver({ type: 'log', level: 'warn', text: `unreadable CLI output (${textOf(reason)}): ${preview(text)}` });
    },
  };
  const translate = options.createTranslator(context);

  const onLine = (line: string): void => {
    if (line.trim() === '') {
      diagnostics.blankLines += 1;
      return;
    }
    let event: unknown = line;
    if ((options.lineFormat ?? 'json') === 'json') {
      try {
        event = JSON.parse(line);
      } catch {
        context.reportMalformed('not JSON', line);
        return;
      }
    }
    try {
      translate(event);
    } catch (error) {
      context.reportMalformed(`translator failed: ${error instanceof Error ? error.message : String(error)}`, line);
    }
  };

  const onOversizedLine = (line: OversizedLine): void => {
    diagnostics.oversizedLines += 1;
    deliver({
      type: 'error',
      code: AGENT_RUN_ERROR_CODES.outputLineTooLong,
      message: `dropped a CLI output line of ${line.bytes} bytes (over the cap): ${preview(line.preview)}`,
    });
  };

  const agentProcess = startAgentProcess({
    executable: options.run.executable,
    args: [...(options.run.launchArgs ?? []), ...options.adapterArgs],
    cwd: options.run.cwd,
    env: options.run.env,
    onLine,
    onOversizedLine,
    onStdoutActivity: () => watchdog.recordActivity(),
    ...(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {}),
    ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
    ...(options.stderrTail ? { stderrTail: options.stderrTail } : {}),
  });
  const input: AgentProcessInput = {
    writeStdin: (text) => agentProcess.writeStdin(text),
    endStdin: () => agentProcess.endStdin(),
  };

  const stopWith = (reason: 'cancel' | 'abort'): Promise<void> => {
    if (!finished && !reportedResult) endedBy ??= reason;
    return agentProcess.kill(reason).then(() => undefined);
  };
  const onAbort = (): void => void stopWith('abort');
  if (options.run.signal?.aborted) onAbort();
  else options.run.signal?.addEventListener('abort', onAbort, { once: true });

  watchdog.start();
  Promise.resolve()
    .then(() => options.start?.(input))
    .catch((error: unknown) => {
      // Usually the CLI died before reading; its exit is reported by the result.
      deliver({ type: 'log', level: 'warn', text: `could not deliver the prompt: ${error instanceof Error ? error.message : String(error)}` });
    });

  const result = agentProcess.exited.then((exit) => {
    finished = true;
    watchdog.stop();
    options.run.signal?.removeEventListener('abort', onAbort);
    queue.close();
    const pattern = options.resumeRejectedPattern;
    if (pattern && options.run.resumeSessionId && [exit.stderrTail, ...unreadableLines].some((text) => pattern.test(text))) resumeRejected = true;
    const facts: RunFacts = {
      ...(sessionId !== undefined ? { sessionId } : {}),
      usageByModel,
      ...(reportedResult ? { result: reportedResult } : {}),
      ...(lastText !== undefined ? { lastText } : {}),
      resumeRejected,
      toolRan,
      ...(endedBy ? { endedBy } : {}),
      diagnostics: { ...diagnostics },
    };
    return assembleRunResult({ facts, exit, durationMs: Math.round(performance.now() - startedAt) });
  });

  return {
    messages: queue.iterable,
    result,
    ...options.capabilities?.(input),
    cancel: () => stopWith('cancel'),
  };
}
