import type { AgentMessage } from '@switchyard/contracts';
import { AGENT_RUN_ERROR_CODES } from '../run-errors/agent-run-error.codes';
import { createAgentSession, type AgentProcessInput } from '../backend/agent-session';
import type { AgentRunResult, AgentSession, Backend, BackendExecuteOptions } from '../backend/backend.types';
import type { Translator, TranslatorContext } from '../backend/translator.types';
import { piDialect, type PiDialectId } from './pi-dialect';
import { createPiEventTranslator } from './pi-event.translator';
import { resolveThinking } from '../backend/thinking-level';
import { withOpeningNotes } from '../backend/opening-notes.session';
import { piThinking } from './pi-thinking';

export interface PiBackendOptions {
  /** `pi` (default) or `omp`: same event stream, different resume flag and refusal text. */
  readonly dialect?: PiDialectId;
  /** `--provider`; omit when the model is given as `provider/id` or settings name a default provider. */
  readonly provider?: string;
  /** `--thinking`: `off`, `minimal`, `low`, `medium`, `high`, `xhigh`; a run's `thinkingLevel` replaces it. */
  readonly thinking?: string;
}

/**
 * Pi's print mode with the JSON event stream: `-p --mode json [--provider] [--model] [--thinking]
 * [--session <id>]`. The prompt goes on stdin, which is then closed: Pi reads piped stdin to EOF in
 * print mode and takes it as the prompt (never argv, where a leading `-` or `@` would be parsed).
 * The session id is the UUID of the session header, the first line; resuming needs the same agent
 * directory (`PI_CODING_AGENT_DIR`, sessions live in its `sessions/--<cwd>--/`) and the same cwd.
 */
export function createPiBackend(backendOptions: PiBackendOptions = {}): Backend {
  const dialect = piDialect(backendOptions.dialect);
  return {
    execute(prompt: string, options: BackendExecuteOptions): Promise<AgentSession> {
      const thinking = resolveThinking(options.thinkingLevel, piThinking);
      const adapterArgs = [
        '-p',
        '--mode',
        'json',
        ...(backendOptions.provider ? ['--provider', backendOptions.provider] : []),
        ...(options.model ? ['--model', options.model] : []),
        ...(thinking.args.length > 0 ? thinking.args : backendOptions.thinking ? ['--thinking', backendOptions.thinking] : []),
        ...(options.resumeSessionId ? [dialect.resumeFlag, options.resumeSessionId] : []),
      ];
      let reportedError: AgentMessage | undefined;
      const session = createAgentSession({
        run: options,
        adapterArgs,
        createTranslator: (context): Translator =>
          createPiEventTranslator(remember(context, (message) => (reportedError = message)), {
            dialect: dialect.id,
            ...(options.resumeSessionId ? { resumeSessionId: options.resumeSessionId } : {}),
          }),
        start: async (input: AgentProcessInput) => {
          await input.writeStdin(prompt);
          input.endStdin();
        },
        resumeRejectedPattern: dialect.resumeRejectedPattern,
      });
      return Promise.resolve(withOpeningNotes({ ...session, result: session.result.then((result) => withReportedFailure(result, reportedError)) }, thinking.notes));
    },
  };
}

/** Oh-My-Pi (`omp`, needs Bun): the Pi backend in its omp dialect. */
export function createOmpBackend(backendOptions: Omit<PiBackendOptions, 'dialect'> = {}): Backend {
  return createPiBackend({ ...backendOptions, dialect: 'omp' });
}

/** Passes every message on and hands the latest `error` message to `onError`. */
function remember(context: TranslatorContext, onError: (message: AgentMessage) => void): TranslatorContext {
  return {
    ...context,
    emit(message: AgentMessage): void {
      if (message.type === 'error') onError(message);
      context.emit(message);
    },
  };
}

/**
 * Pi ends a failed run like a finished one (exit 0, no result event: it prints `agent_end` before
 * deciding whether to retry). A run that ended without a result but after Pi reported an error
 * failed for that reason, not for a missing result.
 */
function withReportedFailure(result: AgentRunResult, reportedError: AgentMessage | undefined): AgentRunResult {
  if (reportedError?.type !== 'error' || result.error?.code !== AGENT_RUN_ERROR_CODES.cliExitedWithoutResult) return result;
  return { ...result, error: { ...result.error, code: AGENT_RUN_ERROR_CODES.cliReportedFailure, message: reportedError.message } };
}
