import type { AgentSession, Backend, BackendExecuteOptions } from '../backend/backend.types';
import type { ClaudePermissionPolicy } from './claude-control.responder';
import { QWEN_CODE_DIALECT } from './stream-json.dialect';
import { startStreamJsonFamilySession } from './stream-json-family.session';
import { qwenMcpArgs } from './qwen-mcp.config';
import { qwenCodeThinking } from './claude-thinking';
import { resolveThinking } from '../backend/thinking-level';
import { writeThinkingSettings } from '../backend/thinking-settings.file';

export interface QwenCodeBackendOptions {
  /** `--auth-type`; `openai` (default) reads `OPENAI_BASE_URL`, `OPENAI_API_KEY`, `OPENAI_MODEL` from the env. */
  readonly authType?: string;
  /** How a `can_use_tool` permission prompt is answered, should one come despite `--yolo`. */
  readonly permissionPolicy?: ClaudePermissionPolicy;
}

/**
 * Qwen Code (0.15) in stream-json mode: the prompt is one user line on stdin, closed once the result
 * arrives. `--yolo` is required: without it the shell and edit tools are removed in non-interactive
 * runs. The env needs `QWEN_CODE_NO_RELAUNCH=true` (else the process we hold is a wrapper) and the
 * model variables, see `writeQwenHome` / `qwenModelEnvironment`. An unknown `--resume` id exits 1
 * with only prose on stderr; cancel (SIGTERM / SIGINT) ends it without a result.
 */
export function createQwenCodeBackend(backendOptions: QwenCodeBackendOptions = {}): Backend {
  return {
    async execute(prompt: string, options: BackendExecuteOptions): Promise<AgentSession> {
      const thinking = resolveThinking(options.thinkingLevel, qwenCodeThinking);
      const settings = await writeThinkingSettings(thinking);
      const adapterArgs = [
        '--auth-type',
        backendOptions.authType ?? 'openai',
        '--input-format',
        'stream-json',
        '--output-format',
        'stream-json',
        '--yolo',
        ...(options.model ? ['--model', options.model] : []),
        ...(options.resumeSessionId ? ['--resume', options.resumeSessionId] : []),
        // Last: its server-names option is variadic.
        ...qwenMcpArgs(options.mcp),
      ];
      const session = startStreamJsonFamilySession({
        prompt,
        run: { ...options, env: { ...options.env, ...settings.env } },
        dialect: QWEN_CODE_DIALECT,
        adapterArgs,
        promptInput: 'stream-json',
        thinking,
        ...(backendOptions.permissionPolicy ? { permissionPolicy: backendOptions.permissionPolicy } : {}),
      });
      // The run's settings file goes with the run, before its result is told (which never rejects).
      const result = session.result.then((ended) => settings.remove().then(() => ended, () => ended));
      return { ...session, result, cancel: () => session.cancel() };
    },
  };
}
