import type { AgentMessage, TokenUsage } from '@switchyard/contracts';
import type { ActivityWatchdog } from '../runner/activity.watchdog';
import type { OversizedLine } from '../runner/line-splitter';
import { guardAgentMessage, invalidReportMessage } from './agent-message.guard';
import type { AgentMessageQueue } from './agent-message.queue';
import { AGENT_RUN_ERROR_CODES } from '../run-errors/agent-run-error.codes';
import type { RunFacts } from './run-result.assembler';
import { guardSessionId, guardTokenUsage, guardTranslatorResult } from './translator-facts.guard';
import type { LineFormat, Translator, TranslatorContext, TranslatorResult } from './translator.types';

const PREVIEW_CHARACTERS = 200;
/** Unreadable stdout lines kept for `resumeRejectedPattern`: CLIs print the refusal once, early. */
const KEPT_UNREADABLE_LINES = 20;

/** What one run learned from its translator, for its result. */
export interface SessionState {
  readonly usageByModel: Map<string, TokenUsage>;
  readonly diagnostics: { malformedLines: number; oversizedLines: number; blankLines: number; invalidMessages: number };
  readonly unreadableLines: string[];
  sessionId: string | undefined;
  reportedResult: TranslatorResult | undefined;
  lastText: string | undefined;
  resumeRejected: boolean;
  toolRan: boolean;
  endedBy: RunFacts['endedBy'];
  /** The process has exited. */
  finished: boolean;
}

export function newSessionState(): SessionState {
  return {
    usageByModel: new Map(),
    diagnostics: { malformedLines: 0, oversizedLines: 0, blankLines: 0, invalidMessages: 0 },
    unreadableLines: [],
    sessionId: undefined,
    reportedResult: undefined,
    lastText: undefined,
    resumeRejected: false,
    toolRan: false,
    endedBy: undefined,
    finished: false,
  };
}

export const preview = (text: string): string => (text.length > PREVIEW_CHARACTERS ? `${text.slice(0, PREVIEW_CHARACTERS)}…` : text);
/** `String` that cannot throw (an object without a prototype has no `toString`). */
const textOf = (value: unknown): string => {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
};

/** Every message passes the contract before it is queued, ours included; what fails is replaced. */
function createDelivery(options: {
  readonly state: SessionState;
  readonly queue: AgentMessageQueue;
  readonly markToolStarted: (callId: string) => void;
  readonly markToolFinished: (callId: string) => void;
}): (candidate: AgentMessage) => void {
  const { state } = options;
  return (candidate) => {
    const verdict = guardAgentMessage(candidate);
    if (verdict.kind !== 'valid') state.diagnostics.invalidMessages += 1;
    const message = verdict.kind === 'invalid' ? verdict.replacement : verdict.message;
    // Bookkeeping reads only checked messages: a `text: 42` never becomes the output.
    if (message.type === 'text') state.lastText = message.text;
    if (message.type === 'tool-use') options.markToolStarted(message.callId);
    if (message.type === 'tool-result') options.markToolFinished(message.callId);
    options.queue.push(message);
  };
}

/** The translator's side of a session: checked messages into the queue, checked facts into the state. */
export function createSessionContext(options: {
  readonly state: SessionState;
  readonly queue: AgentMessageQueue;
  readonly watchdog: ActivityWatchdog;
  /** Close stdin once the result is reported. */
  readonly endStdinOnResult: boolean;
  readonly endStdin: () => void;
}): TranslatorContext {
  const { state, queue, watchdog } = options;
  const markToolStarted = (callId: string): void => {
    state.toolRan = true;
    watchdog.toolStarted(callId);
  };
  const markToolFinished = (callId: string): void => watchdog.toolFinished(callId);
  const deliver = createDelivery({ state, queue, markToolStarted, markToolFinished });
  const reportInvalidFact = (what: string, problem: string): void => {
    state.diagnostics.invalidMessages += 1;
    queue.push(invalidReportMessage(what, problem));
  };
  return {
    emit: deliver,
    reportSessionId(value: string): void {
      const verdict = guardSessionId(value);
      if (verdict.kind === 'valid') state.sessionId = verdict.value;
      else reportInvalidFact('a session id', verdict.problem);
    },
    reportUsage(usage: TokenUsage): void {
      const verdict = guardTokenUsage(usage);
      if (verdict.kind === 'valid') state.usageByModel.set(`${verdict.value.provider ?? ''}\u0000${verdict.value.model}`, verdict.value);
      else reportInvalidFact('a usage report', verdict.problem);
    },
    reportResult(candidate: TranslatorResult): void {
      const { result, problems } = guardTranslatorResult(candidate);
      if (problems.length > 0) reportInvalidFact('part of the result', problems.join('; '));
      state.reportedResult = result;
      watchdog.resultSeen();
      if (options.endStdinOnResult) options.endStdin();
    },
    reportResumeRejected(): void {
      state.resumeRejected = true;
    },
    markToolStarted,
    markToolFinished,
    reportMalformed(reason: string, line: string): void {
      state.diagnostics.malformedLines += 1;
      // Translators pass native values here too; a number must not break the diagnostic.
      const text = textOf(line);
      if (state.unreadableLines.length < KEPT_UNREADABLE_LINES) state.unreadableLines.push(text);
      deliver({ type: 'log', level: 'warn', text: `unreadable CLI output (${textOf(reason)}): ${preview(text)}` });
    },
  };
}

/** Hands each stdout line to the translator (parsed, for `json` lines); what it cannot read is counted and surfaced. */
export function createLineReader(options: { readonly lineFormat: LineFormat; readonly translate: Translator; readonly context: TranslatorContext; readonly state: SessionState }): (line: string) => void {
  const { context, state } = options;
  return (line) => {
    if (line.trim() === '') {
      state.diagnostics.blankLines += 1;
      return;
    }
    let event: unknown = line;
    if (options.lineFormat === 'json') {
      try {
        event = JSON.parse(line);
      } catch {
        context.reportMalformed('not JSON', line);
        return;
      }
    }
    try {
      options.translate(event);
    } catch (error) {
      context.reportMalformed(`translator failed: ${error instanceof Error ? error.message : String(error)}`, line);
    }
  };
}

/** A line over the size cap was dropped while streaming: counted, and said in the timeline. */
export function reportOversizedLine(options: { readonly line: OversizedLine; readonly context: TranslatorContext; readonly state: SessionState }): void {
  options.state.diagnostics.oversizedLines += 1;
  options.context.emit({
    type: 'error',
    code: AGENT_RUN_ERROR_CODES.outputLineTooLong,
    message: `dropped a CLI output line of ${options.line.bytes} bytes (over the cap): ${preview(options.line.preview)}`,
  });
}
