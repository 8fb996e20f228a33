import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentMessage } from '@switchyard/contracts';
import { createAgentSession, DEFAULT_AGENT_RUN_TIMEOUTS } from '../backend/agent-session';
import type { AgentRunResult, AgentSession, Backend, BackendExecuteOptions } from '../backend/backend.types';
import type { Translator, TranslatorContext } from '../backend/translator.types';
import { antigravityOutputMode, type AntigravityOutputMode } from './antigravity-cli.version';
import { createAntigravityStreamTranslator, createAntigravityTextTranslator } from './antigravity-event.translator';
import { parseAntigravityLog, settleAntigravityRun } from './antigravity-log.reader';
import { resolveThinking } from '../backend/thinking-level';
import { withOpeningNotes } from '../backend/opening-notes.session';
import { antigravityThinking } from './antigravity-thinking';

/** When the run has no total budget: agy's timeout has no "off" and is 5 min when not passed. */
const UNBOUNDED_PRINT_TIMEOUT_MS = 24 * 60 * 60_000;

export interface AntigravityBackendOptions {
  /** `agy --version` of the runtime: stream JSON from 1.1.8 on, plain text before or when unknown. */
  readonly cliVersion?: string;
  /** Where each run's `--log-file` is written (and removed after); default the OS temp directory. */
  readonly logDirectory?: string;
}

/** `--print-timeout` as a Go duration: the run's total budget, whole seconds, at least one. */
export function antigravityPrintTimeout(totalMs: number | undefined): string {
  const budget = totalMs ?? DEFAULT_AGENT_RUN_TIMEOUTS.totalMs;
  const milliseconds = budget > 0 ? budget : UNBOUNDED_PRINT_TIMEOUT_MS;
  return `${Math.max(1, Math.ceil(milliseconds / 1000))}s`;
}

export interface AntigravityArgsInput {
  readonly prompt: string;
  readonly mode: AntigravityOutputMode;
  readonly logFile: string;
  readonly printTimeout: string;
  readonly cwd: string;
  readonly model?: string;
  readonly resumeSessionId?: string;
}

/**
 * agy's print-mode arguments. The prompt can only be the value of `-p` (agy reads no stdin in print
 * mode); it goes last, as a separate argument, where no other flag can be taken for it. `--add-dir`
 * keeps agy in the run's directory (without it files land in agy's scratch directory).
 */
export function buildAntigravityArgs(input: AntigravityArgsInput): string[] {
  return [
    '--dangerously-skip-permissions',
    ...(input.mode === 'stream-json' ? ['--output-format', 'stream-json'] : []),
    ...(input.model ? ['--model', input.model] : []),
    '--print-timeout',
    input.printTimeout,
    '--log-file',
    input.logFile,
    ...(input.resumeSessionId ? ['--conversation', input.resumeSessionId] : []),
    '--add-dir',
    input.cwd,
    '-p',
    input.prompt,
  ];
}

/** The run's messages, then the session found in the log once agy is gone, if none was announced. */
async function* withSessionFromLog(messages: AsyncIterable<AgentMessage>, result: Promise<AgentRunResult>): AsyncGenerator<AgentMessage> {
  let announced: string | undefined;
  for await (const message of messages) {
    if (message.type === 'status' && message.sessionId) announced = message.sessionId;
    yield message;
  }
  const { sessionId } = await result;
  if (sessionId && sessionId !== announced) yield { type: 'status', sessionId, state: 'session_from_log', progress: 'conversation id read from the agy log file' };
}

/**
 * Antigravity CLI in print mode, one prompt per process: `agy … -p <prompt>`, stdin closed at once.
 * Newer agy (1.1.8+) streams JSON events; older agy prints plain text, each line shown as text and
 * the run completed on exit 0. The conversation id (the session) is read from the `--log-file`
 * this backend passes, after agy exits, unless the stream named it; the log also tells a print
 * timeout or provider error apart from an answer. Resume rejection is not detectable: agy says
 * nothing when `--conversation` names an unknown conversation.
 */
export function createAntigravityBackend(backendOptions: AntigravityBackendOptions = {}): Backend {
  const mode = antigravityOutputMode(backendOptions.cliVersion);

  return {
    async execute(prompt: string, options: BackendExecuteOptions): Promise<AgentSession> {
      const logDirectory = await mkdtemp(path.join(backendOptions.logDirectory ?? tmpdir(), 'switchyard-agy-'));
      const logFile = path.join(logDirectory, 'agy.log');
      const printTimeout = antigravityPrintTimeout(options.timeouts?.totalMs);
      const stdoutLines: string[] = [];

      const createTranslator = (context: TranslatorContext): Translator => {
        if (mode === 'stream-json') {
          return createAntigravityStreamTranslator(context, {
            ...(options.model ? { model: options.model } : {}),
            ...(options.resumeSessionId ? { resumeSessionId: options.resumeSessionId } : {}),
          });
        }
        const translate = createAntigravityTextTranslator(context);
        return (line) => {
          if (typeof line === 'string') stdoutLines.push(line);
          translate(line);
        };
      };

      const session = createAgentSession({
        run: options,
        adapterArgs: buildAntigravityArgs({
          prompt,
          mode,
          logFile,
          printTimeout,
          cwd: options.cwd,
          ...(options.model ? { model: options.model } : {}),
          ...(options.resumeSessionId ? { resumeSessionId: options.resumeSessionId } : {}),
        }),
        createTranslator,
        lineFormat: mode === 'stream-json' ? 'json' : 'text',
        // Print mode takes nothing on stdin; an open pipe would only let a build that reads it wait.
        start: (input) => input.endStdin(),
        endStdinOnResult: false,
      });

      const result = session.result.then(async (run) => {
        const logText = await readFile(logFile, 'utf8').catch(() => '');
        await rm(logDirectory, { recursive: true, force: true }).catch(() => undefined);
        return settleAntigravityRun({ result: run, log: parseAntigravityLog(logText), mode, printTimeout, stdoutText: stdoutLines.join('\n') });
      });

      return withOpeningNotes({ ...session, messages: withSessionFromLog(session.messages, result), result }, resolveThinking(options.thinkingLevel, antigravityThinking).notes);
    },
  };
}
