import type { AgentSession, Backend, BackendExecuteOptions } from '../backend/backend.types';
import type { ClaudePermissionPolicy } from './claude-control.responder';
import { QWEN_CODE_DIALECT } from './stream-json.dialect';
import { startStreamJsonFamilySession } from './stream-json-family.session';

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
    execute(prompt: string, options: BackendExecuteOptions): Promise<AgentSession> {
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
      ];
      return Promise.resolve(
        startStreamJsonFamilySession({
          prompt,
          run: options,
          dialect: QWEN_CODE_DIALECT,
          adapterArgs,
          promptInput: 'stream-json',
          ...(backendOptions.permissionPolicy ? { permissionPolicy: backendOptions.permissionPolicy } : {}),
        }),
      );
    },
  };
}
