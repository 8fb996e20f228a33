import { randomUUID } from 'node:crypto';
import { createAgentSession } from '../backend/agent-session';
import type { AgentSession, Backend, BackendExecuteOptions } from '../backend/backend.types';
import { createOpenClawEventTranslator } from './openclaw-event.translator';
import { resolveThinking } from '../backend/thinking-level';
import { withOpeningNotes } from '../backend/opening-notes.session';
import { openClawThinking } from './openclaw-thinking';

export interface OpenClawJsonlBackendOptions {
  /**
   * The runtime brief. OpenClaw reads no context file Switchyard could write, so the brief goes
   * inline: prepended to the message, separated by a blank line.
   */
  readonly systemPrompt?: string;
  /** `local` (default) runs the embedded agent (`--local`); `gateway` sends the turn to a running Gateway. */
  readonly mode?: 'local' | 'gateway';
  /** OpenClaw agent id (`--agent`). */
  readonly agentId?: string;
  /** The CLI's own turn deadline (`--timeout`, seconds); its default is 600. */
  readonly timeoutSeconds?: number;
}

/** The message OpenClaw receives: the brief, if any, then the prompt. */
export function openClawMessage(prompt: string, systemPrompt: string | undefined): string {
  return systemPrompt && systemPrompt.trim() !== '' ? `${systemPrompt}\n\n${prompt}` : prompt;
}

/**
 * OpenClaw's `agent --json`: the message is an argument, stdin is unused, and the one reply
 * document arrives on stdout at the end of the turn. The session id belongs to the caller: a fresh
 * run gets a UUID minted here, reported as the session id at once (OpenClaw takes any id and
 * starts a session under it, so a resume is never refused, and a refusal is undetectable).
 * Offline runs need, in the given env: a throwaway `HOME` (or `OPENCLAW_STATE_DIR`,
 * `OPENCLAW_CONFIG_PATH`) whose `openclaw.json` registers the model provider under
 * `models.providers` with a local `baseUrl`, and Node >= 24.16 as the interpreter.
 */
export function createOpenClawJsonlBackend(backendOptions: OpenClawJsonlBackendOptions = {}): Backend {
  return {
    execute(prompt: string, options: BackendExecuteOptions): Promise<AgentSession> {
      const sessionId = options.resumeSessionId ?? randomUUID();
      const adapterArgs = [
        'agent',
        ...((backendOptions.mode ?? 'local') === 'local' ? ['--local'] : []),
        '--json',
        '--session-id',
        sessionId,
        ...(backendOptions.timeoutSeconds !== undefined ? ['--timeout', String(backendOptions.timeoutSeconds)] : []),
        ...(backendOptions.agentId ? ['--agent', backendOptions.agentId] : []),
        ...(options.model ? ['--model', options.model] : []),
        // One token, so a message that starts with `-` is never read as a flag.
        `--message=${openClawMessage(prompt, backendOptions.systemPrompt)}`,
      ];
      return Promise.resolve(
        withOpeningNotes(createAgentSession({
          run: options,
          adapterArgs,
          lineFormat: 'text',
          createTranslator: (context) => createOpenClawEventTranslator(context, { sessionId }),
          start: (input) => input.endStdin(),
        }), resolveThinking(options.thinkingLevel, openClawThinking).notes),
      );
    },
  };
}
