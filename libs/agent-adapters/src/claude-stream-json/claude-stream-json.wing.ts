import type { Backend } from '../backend/backend.types';
import type { FamilyWing, LaunchEnvironmentRequest, LaunchTarget } from '../family-kit/family-wing.types';
import { openAiCompatibleEndpoint } from '../family-kit/openai-compatible.endpoint';
import { STREAM_JSON_FAILED_OUTPUT, classifyClaudeFailure } from './claude-failure.classifier';
import { createClaudeStreamJsonBackend } from './claude-stream-json.backend';
import { createCodeBuddyBackend } from './codebuddy.backend';
import { createCursorAgentBackend } from './cursor-agent.backend';
import { createQwenCodeBackend } from './qwen-code.backend';
import { qwenModelEnvironment, writeQwenHome } from './qwen-home.writer';

/** Claude Code's backend: the family's plain one, for a profile's command too. */
const plainBackend = (): Backend => createClaudeStreamJsonBackend();

/** Identities whose CLI has its own backend (its flags, its dialect). */
const IDENTITY_BACKENDS: Readonly<Record<string, () => Backend>> = {
  'claude-code': plainBackend,
  'qwen-code': () => createQwenCodeBackend(),
  codebuddy: () => createCodeBuddyBackend(),
  'cursor-agent': () => createCursorAgentBackend(),
};

/** Claude Code's switches for an unattended run; a profile's command of the family gets them too. */
function claudeEnvironment(): Record<string, string> {
  return {
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    // Claude retries a failed model call 10 times by default, up to ~40 s apart (minutes on a cut
    // connection); two keep a blip invisible and leave longer waits to the queue's backoff.
    CLAUDE_CODE_MAX_RETRIES: '2',
    // As root, bypassPermissions is refused unless the CLI is told it runs sandboxed.
    ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}),
  };
}

/** Qwen Code's settings in the runtime's HOME and its model variables, from the agent's provider. */
async function qwenEnvironment(request: LaunchEnvironmentRequest): Promise<Record<string, string>> {
  const endpoint = openAiCompatibleEndpoint(request.agent);
  const qwenHome = await writeQwenHome({ home: request.home });
  const modelEnvironment = qwenModelEnvironment({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey ?? '', model: endpoint.model });
  // The agent's own OPENAI_* values win: they are layered over these.
  return { ...modelEnvironment, ...qwenHome.env };
}

export const CLAUDE_STREAM_JSON_WING: FamilyWing = {
  backendFor: (target: LaunchTarget) => (IDENTITY_BACKENDS[target.identity ?? ''] ?? plainBackend)(),
  classifyFailure: classifyClaudeFailure,
  failedOutput: STREAM_JSON_FAILED_OUTPUT,
  prepareLaunchEnvironment: (request) => (request.target.identity === 'qwen-code' ? qwenEnvironment(request) : Promise.resolve(claudeEnvironment())),
};
