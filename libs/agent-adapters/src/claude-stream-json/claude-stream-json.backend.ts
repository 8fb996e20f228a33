import { randomUUID } from 'node:crypto';
import { createAgentSession, type AgentProcessInput } from '../backend/agent-session';
import type { AgentSession, Backend, BackendExecuteOptions } from '../backend/backend.types';
import type { Translator } from '../backend/translator.types';
import { claudeMcpArgs } from './claude-mcp.config';
import { answerClaudeControlRequest, type ClaudePermissionPolicy } from './claude-control.responder';
import { createClaudeEventTranslator } from './claude-event.translator';
import { streamJsonUserLine as userMessageLine } from './stream-json-family.session';
import { resolveThinking } from '../backend/thinking-level';
import { withOpeningNotes } from '../backend/opening-notes.session';
import { claudeCodeThinking } from './claude-thinking';

export interface ClaudeStreamJsonBackendOptions {
  /** How tool permission prompts (`control_request` `can_use_tool`) are answered. */
  readonly permissionPolicy?: ClaudePermissionPolicy;
  /**
   * The CLI's `--permission-mode`. `bypassPermissions` (default) rarely asks; `default` asks for
   * every tool, each prompt then answered per policy over stdin.
   */
  readonly permissionMode?: string;
}

/**
 * Claude Code in print mode with stream-json in and out: the prompt goes on stdin (never argv),
 * stdin stays open for mid-run messages and the in-band interrupt, and is closed once the result
 * arrives, which is how the CLI knows to exit. Root needs `IS_SANDBOX=1` in the given env for
 * `bypassPermissions`. Permission prompts come to us as `control_request` on stdout
 * (`--permission-prompt-tool stdio`) and are answered on stdin per policy, so a run never hangs on
 * a question nobody can answer.
 */
export function createClaudeStreamJsonBackend(backendOptions: ClaudeStreamJsonBackendOptions = {}): Backend {
  const permissionPolicy = backendOptions.permissionPolicy ?? 'allow';
  return {
    execute(prompt: string, options: BackendExecuteOptions): Promise<AgentSession> {
      const thinking = resolveThinking(options.thinkingLevel, claudeCodeThinking);
      const adapterArgs = [
        '-p',
        '--input-format',
        'stream-json',
        '--output-format',
        'stream-json',
        '--verbose',
        '--permission-mode',
        backendOptions.permissionMode ?? 'bypassPermissions',
        '--permission-prompt-tool',
        'stdio',
        ...claudeMcpArgs(options.mcp),
        ...(options.model ? ['--model', options.model] : []),
        ...(options.resumeSessionId ? ['--resume', options.resumeSessionId] : []),
        ...thinking.args,
      ];
      let processInput: AgentProcessInput | undefined;
      const answer = (event: unknown): void => {
        const reply = answerClaudeControlRequest(event, permissionPolicy);
        // A write error means the CLI is gone; its exit is reported by the result.
        if (reply && processInput) void processInput.writeStdin(`${JSON.stringify(reply)}\n`).catch(() => undefined);
      };
      return Promise.resolve(
        withOpeningNotes(createAgentSession({
          // A variable the agent set itself wins over the level's.
          run: { ...options, env: { ...thinking.env, ...options.env } },
          adapterArgs,
          createTranslator: (context): Translator => {
            const translate = createClaudeEventTranslator(context, { permissionPolicy });
            return (event) => {
              answer(event);
              translate(event);
            };
          },
          start: (input: AgentProcessInput) => {
            processInput = input;
            return input.writeStdin(userMessageLine(prompt));
          },
          endStdinOnResult: true,
          capabilities: (input: AgentProcessInput) => {
            processInput = input;
            return {
            sendUserMessage: (text: string) => input.writeStdin(userMessageLine(text)),
            interrupt: () => input.writeStdin(`${JSON.stringify({ type: 'control_request', request_id: randomUUID(), request: { subtype: 'interrupt' } })}\n`),
            };
          },
        }), thinking.notes),
      );
    },
  };
}
