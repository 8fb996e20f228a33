import { createAgentSession, type AgentProcessInput } from '../backend/agent-session';
import type { AgentSession, Backend, BackendExecuteOptions } from '../backend/backend.types';
import { OPENCODE_DIALECTS, parseCliVersion, promptAsArguments, type OpenCodeDialect, type OpenCodeDialectId } from './opencode-dialect';
import { createOpenCodeEventTranslator, OPENCODE_RESUME_REJECTED, type OpenCodeTranslator } from './opencode-event.translator';
import { settleOpenCodeRun } from './opencode-run.settler';
import { resolveThinking } from '../backend/thinking-level';
import { withOpeningNotes } from '../backend/opening-notes.session';
import { openCodeThinking } from './opencode-thinking';

export interface OpenCodeBackendOptions {
  /**
   * The version the daemon detected (`opencode --version`, e.g. `1.18.33`). It picks the
   * working-directory mechanism and the reasoning-token convention; leave it out for a profile's
   * custom command, which then gets the rules that hold for every version.
   */
  readonly cliVersion?: string;
  /** Which CLI of the family (default `opencode`). */
  readonly dialect?: OpenCodeDialectId;
  /** Usage is booked to this `provider/model` when a run names no model (the config's `model`). */
  readonly defaultModel?: string;
  /** `--variant` (provider-specific reasoning effort), when set. */
  readonly variant?: string;
  /**
   * The provider a bare model id (`gpt-5`, no `provider/`) belongs to, e.g. the one
   * `writeOpenCodeHome` configured; without it a bare id is passed as it is.
   */
  readonly bareModelProvider?: string;
}

/** `provider/model` as the CLI wants it; a bare id gets the configured provider. */
export function qualifyOpenCodeModel(model: string | undefined, bareModelProvider: string | undefined): string | undefined {
  if (model === undefined || bareModelProvider === undefined || model.includes('/')) return model;
  return `${bareModelProvider}/${model}`;
}

/** The CLI arguments and environment of one run; exported for tests and launch logging. */
export function buildOpenCodeLaunch(input: {
  readonly dialect: OpenCodeDialect;
  readonly cliVersion?: string;
  readonly prompt: string;
  readonly run: Pick<BackendExecuteOptions, 'cwd' | 'env' | 'model' | 'resumeSessionId'>;
  readonly variant?: string;
  /** The agent's thinking level as the CLI takes it (`--variant <effort>`); replaces `variant`. */
  readonly thinkingArgs?: readonly string[];
}): { readonly args: string[]; readonly env: Record<string, string> } {
  const { dialect, run } = input;
  const version = parseCliVersion(input.cliVersion);
  const args = [
    'run',
    '--format',
    'json',
    // Hidden alias of `--auto` in 1.18: permission prompts are answered "once" instead of rejected.
    '--dangerously-skip-permissions',
    ...(dialect.supportsDirectoryFlag(version) ? ['--dir', run.cwd] : []),
    ...(run.model ? ['--model', run.model] : []),
    ...(input.thinkingArgs?.length ? input.thinkingArgs : input.variant ? ['--variant', input.variant] : []),
    ...(run.resumeSessionId ? ['--session', run.resumeSessionId] : []),
    ...(dialect.promptDelivery === 'argv' ? promptAsArguments(input.prompt) : []),
  ];
  // `run` takes its project root from PWD before the process cwd; the spawn sets the cwd, PWD
  // must agree or the agent works (and looks for AGENTS.md) elsewhere.
  return { args, env: { ...run.env, PWD: run.cwd } };
}

/**
 * `opencode run --format json` (and its forks, see `OpenCodeDialect`): one process per turn, the
 * prompt on stdin closed at once (or on argv), NDJSON events on stdout until the session goes
 * idle and the CLI exits. The session id (`sessionID` on every event) resumes with `--session`;
 * an unknown id makes the CLI exit 1 with `Error: Session not found` on stderr before any event.
 * The config and the offline switches come from `writeOpenCodeHome`.
 */
export function createOpenCodeBackend(backendOptions: OpenCodeBackendOptions = {}): Backend {
  const dialect = OPENCODE_DIALECTS[backendOptions.dialect ?? 'opencode'];
  const reasoningReportedApart = dialect.separatesReasoningTokens(parseCliVersion(backendOptions.cliVersion));
  return {
    execute(prompt: string, options: BackendExecuteOptions): Promise<AgentSession> {
      const qualifiedModel = qualifyOpenCodeModel(options.model, backendOptions.bareModelProvider);
      const run = { ...options, ...(qualifiedModel !== undefined ? { model: qualifiedModel } : {}) };
      const thinking = resolveThinking(options.thinkingLevel, openCodeThinking);
      const launch = buildOpenCodeLaunch({
        dialect,
        prompt,
        run,
        ...(backendOptions.cliVersion !== undefined ? { cliVersion: backendOptions.cliVersion } : {}),
        ...(backendOptions.variant !== undefined ? { variant: backendOptions.variant } : {}),
        thinkingArgs: thinking.args,
      });
      let translator: OpenCodeTranslator | undefined;
      const model = run.model ?? backendOptions.defaultModel;
      const session = createAgentSession({
        run: { ...run, env: launch.env },
        adapterArgs: launch.args,
        createTranslator: (context) => {
          translator = createOpenCodeEventTranslator(context, { reasoningReportedApart, ...(model !== undefined ? { model } : {}) });
          return translator;
        },
        start: async (input: AgentProcessInput) => {
          // OpenCode reads stdin to EOF before it starts (also with an argv prompt): always close it.
          try {
            if (dialect.promptDelivery === 'stdin') await input.writeStdin(prompt);
          } finally {
            input.endStdin();
          }
        },
        endStdinOnResult: false,
        resumeRejectedPattern: OPENCODE_RESUME_REJECTED,
      });
      const result = session.result.then((settled) => (translator ? settleOpenCodeRun(settled, translator.verdict()) : settled));
      return Promise.resolve(withOpeningNotes({ messages: session.messages, result, cancel: () => session.cancel() }, thinking.notes));
    },
  };
}

/** DevEco Code (`deveco`): OpenCode's protocol with the prompt on argv. */
export const createDevEcoBackend = (options: Omit<OpenCodeBackendOptions, 'dialect'> = {}): Backend => createOpenCodeBackend({ ...options, dialect: 'deveco' });

/** Huawei CodeArts Agent CLI (`codearts`), treated as an OpenCode fork with the prompt on argv. */
export const createCodeArtsBackend = (options: Omit<OpenCodeBackendOptions, 'dialect'> = {}): Backend => createOpenCodeBackend({ ...options, dialect: 'codearts' });
