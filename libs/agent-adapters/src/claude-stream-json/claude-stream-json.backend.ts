import { randomUUID } from 'node:crypto';
import { createAgentSession, type AgentProcessInput } from '../backend/agent-session';
import type { AgentSession, Backend, BackendExecuteOptions } from '../backend/backend.types';
import { createClaudeEventTranslator } from './claude-event.translator';

/** One user turn on Claude's stream-json stdin. */
function userMessageLine(text: string): string {
  return `${JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text }] } })}\n`;
}

/**
 * Claude Code in print mode with stream-json in and out: the prompt goes on stdin (never argv),
 * stdin stays open for mid-run messages and the in-band interrupt, and is closed once the result
 * arrives, which is how the CLI knows to exit. Root needs `IS_SANDBOX=1` in the given env for
 * `bypassPermissions`; without bypass the shell tool is silently denied.
 */
export function createClaudeStreamJsonBackend(): Backend {
  return {
    execute(prompt: string, options: BackendExecuteOptions): Promise<AgentSession> {
      const adapterArgs = [
        '-p',
        '--input-format',
        'stream-json',
        '--output-format',
        'stream-json',
        '--verbose',
        '--permission-mode',
        'bypassPermissions',
        ...(options.model ? ['--model', options.model] : []),
        ...(options.resumeSessionId ? ['--resume', options.resumeSessionId] : []),
      ];
      return Promise.resolve(
        createAgentSession({
          run: options,
          adapterArgs,
          createTranslator: createClaudeEventTranslator,
          start: (input: AgentProcessInput) => input.writeStdin(userMessageLine(prompt)),
          endStdinOnResult: true,
          capabilities: (input: AgentProcessInput) => ({
            sendUserMessage: (text: string) => input.writeStdin(userMessageLine(text)),
            interrupt: () => input.writeStdin(`${JSON.stringify({ type: 'control_request', request_id: randomUUID(), request: { subtype: 'interrupt' } })}\n`),
          }),
        }),
      );
    },
  };
}
