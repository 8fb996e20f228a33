import { PROCESS_GROUP_KILL } from '../family-kit/process-group.kill';
import { defineProtocolFamily } from '../family-kit/runtime-identity.types';

/** Codex's JSON-RPC app-server. */
export const CODEX_APP_SERVER_FAMILY = defineProtocolFamily({
  family: 'codex-app-server',
  description: {
    displayName: 'Codex app-server (JSON-RPC)',
    adapter: 'available',
    launch: '`app-server` (JSON-RPC on stdio) with a throwaway `CODEX_HOME`',
    promptDelivery: '`turn/start` after `initialize` and `thread/start`',
    resume: '`thread/resume` with the thread id as session id; its JSON-RPC error is a rejected resume',
    cancel: `\`turn/interrupt\` for a turn; cancel: ${PROCESS_GROUP_KILL}`,
    usage: 'Running totals from `thread/tokenUsage/updated` notifications',
    testedWith: '**real CLI**: Codex 0.171.0',
  },
  // The cross-vendor Agent Skills folder: Codex reads it from the cwd up, Gemini CLI and OpenCode too.
  defaults: { contextFileName: 'AGENTS.md', skillsDirectory: '.agents/skills', mcpDelivery: 'codex-thread-config', inlineRuntimeBrief: false },
  identities: [{ identity: 'codex', displayName: 'Codex', commandName: 'codex', provider: 'openai', verification: 'real-cli' }],
});
