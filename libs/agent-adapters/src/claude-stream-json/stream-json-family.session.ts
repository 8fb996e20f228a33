import { createAgentSession, type AgentProcessInput } from '../backend/agent-session';
import type { AgentSession, BackendExecuteOptions } from '../backend/backend.types';
import type { Translator } from '../backend/translator.types';
import { answerClaudeControlRequest, type ClaudePermissionPolicy } from './claude-control.responder';
import { createClaudeEventTranslator } from './claude-event.translator';
import type { StreamJsonDialect } from './stream-json.dialect';
import { resolveThinking, unsupportedThinking, type ResolvedThinking } from '../backend/thinking-level';
import { withOpeningNotes } from '../backend/opening-notes.session';

/** One user turn on a stream-json stdin (`--input-format stream-json`). */
export function streamJsonUserLine(text: string): string {
  return `${JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text }] } })}\n`;
}

export interface StreamJsonFamilySessionOptions {
  readonly prompt: string;
  readonly run: BackendExecuteOptions;
  readonly dialect: StreamJsonDialect;
  /** The identity's arguments, never the prompt. */
  readonly adapterArgs: readonly string[];
  /**
   * `stream-json`: the prompt as one user line; stdin stays open so permission prompts
   * (`control_request`) can be answered, and is closed once the result arrives.
   * `text`: the prompt as plain text, then end of input (the CLI reads stdin to EOF).
   */
  readonly promptInput: 'stream-json' | 'text';
  readonly permissionPolicy?: ClaudePermissionPolicy;
  /** The run's thinking level as the identity resolved it; by default the CLI takes none and the timeline says so. */
  readonly thinking?: ResolvedThinking;
}

const NO_THINKING_SETTING = unsupportedThinking('the CLI has no thinking setting Switchyard can pass');

/** Runs one turn of a Claude stream-json family CLI other than Claude Code itself. */
export function startStreamJsonFamilySession(options: StreamJsonFamilySessionOptions): AgentSession {
  const permissionPolicy = options.permissionPolicy ?? 'allow';
  let processInput: AgentProcessInput | undefined;
  const answer = (event: unknown): void => {
    const reply = answerClaudeControlRequest(event, permissionPolicy);
    // A write error means the CLI is gone; its exit is reported by the result.
    if (reply && processInput) void processInput.writeStdin(`${JSON.stringify(reply)}\n`).catch(() => undefined);
  };
  const thinking = options.thinking ?? resolveThinking(options.run.thinkingLevel, NO_THINKING_SETTING);
  const session = createAgentSession({
    run: { ...options.run, env: { ...thinking.env, ...options.run.env } },
    adapterArgs: [...options.adapterArgs, ...thinking.args],
    createTranslator: (context): Translator => {
      const translate = createClaudeEventTranslator(context, { permissionPolicy, dialect: options.dialect });
      return (event) => {
        answer(event);
        translate(event);
      };
    },
    start: async (input: AgentProcessInput) => {
      processInput = input;
      if (options.promptInput === 'stream-json') {
        await input.writeStdin(streamJsonUserLine(options.prompt));
        return;
      }
      await input.writeStdin(options.prompt);
      input.endStdin();
    },
    endStdinOnResult: true,
    ...(options.dialect.resumeRejectedInProse ? { resumeRejectedPattern: options.dialect.resumeRejectedInProse } : {}),
  });
  return withOpeningNotes(session, thinking.notes);
}
