import type { AgentSession, Backend, BackendExecuteOptions } from '../backend/backend.types';
import { CURSOR_AGENT_DIALECT } from './stream-json.dialect';
import { startStreamJsonFamilySession } from './stream-json-family.session';

/**
 * Cursor agent in print mode with stream-json out: the prompt is plain text on stdin, then end of
 * input; `--yolo` approves every tool, `--workspace` pins the work directory. Not installable offline
 * here: built from Cursor's CLI reference and recorded frames. The env carries `CURSOR_API_KEY` for
 * headless auth (and a per-run `CURSOR_DATA_DIR` keeps its chats apart). Resume with an unknown id is
 * not refused (a fresh chat starts under that id), so `resumeRejected` stays false.
 */
export function createCursorAgentBackend(): Backend {
  return {
    execute(prompt: string, options: BackendExecuteOptions): Promise<AgentSession> {
      const adapterArgs = [
        '-p',
        '--output-format',
        'stream-json',
        '--yolo',
        '--workspace',
        options.cwd,
        ...(options.model ? ['--model', options.model] : []),
        ...(options.resumeSessionId ? ['--resume', options.resumeSessionId] : []),
      ];
      return Promise.resolve(startStreamJsonFamilySession({ prompt, run: options, dialect: CURSOR_AGENT_DIALECT, adapterArgs, promptInput: 'text' }));
    },
  };
}
