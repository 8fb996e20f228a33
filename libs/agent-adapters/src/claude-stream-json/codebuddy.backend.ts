import type { AgentSession, Backend, BackendExecuteOptions } from '../backend/backend.types';
import type { ClaudePermissionPolicy } from './claude-control.responder';
import { CODEBUDDY_DIALECT } from './stream-json.dialect';
import { startStreamJsonFamilySession } from './stream-json-family.session';

/** Tools that wait on a human; headless they would stall the turn. Each must be its own argv value. */
export const CODEBUDDY_DISALLOWED_TOOLS = ['AskUserQuestion', 'EnterPlanMode', 'ExitPlanMode'] as const;

export interface CodeBuddyBackendOptions {
  /** How a `can_use_tool` permission prompt (`control_request` on stdout) is answered over stdin. */
  readonly permissionPolicy?: ClaudePermissionPolicy;
}

/**
 * CodeBuddy Code (Tencent's Claude Code fork) in print mode with stream-json in and out, the prompt
 * one user line on stdin, kept open for permission answers and closed once the result arrives.
 * Not installable offline here: built from its documented flags (`codebuddy --help`, Tencent Cloud
 * CLI reference) and its Claude-shaped stream. The env carries `CODEBUDDY_API_KEY` (always used
 * with `-p`) and optionally `CODEBUDDY_BASE_URL`; it reads `CODEBUDDY.md` from the work directory.
 */
export function createCodeBuddyBackend(backendOptions: CodeBuddyBackendOptions = {}): Backend {
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
        // Variadic: kept last so the tool names cannot swallow another option's value.
        '--disallowedTools',
        ...CODEBUDDY_DISALLOWED_TOOLS,
      ];
      return Promise.resolve(
        startStreamJsonFamilySession({
          prompt,
          run: options,
          dialect: CODEBUDDY_DIALECT,
          adapterArgs,
          promptInput: 'stream-json',
          ...(backendOptions.permissionPolicy ? { permissionPolicy: backendOptions.permissionPolicy } : {}),
        }),
      );
    },
  };
}
