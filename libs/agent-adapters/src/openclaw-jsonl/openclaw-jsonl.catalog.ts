import { PROCESS_GROUP_KILL } from '../family-kit/process-group.kill';
import { defineProtocolFamily } from '../family-kit/runtime-identity.types';

/** OpenClaw's local agent with one JSON reply. */
export const OPENCLAW_JSONL_FAMILY = defineProtocolFamily({
  family: 'openclaw-jsonl',
  description: {
    displayName: 'OpenClaw JSON',
    adapter: 'available',
    launch: '`agent --local --json --session-id <id>` (the daemon mints the id of a fresh run); the reply is one JSON document, pretty-printed over many lines',
    promptDelivery: 'One `--message=<text>` argument, with the runtime brief in front (OpenClaw reads no context file)',
    resume: 'The same `--session-id`; OpenClaw accepts any id, so a refusal cannot be seen',
    cancel: PROCESS_GROUP_KILL,
    usage: 'The reply’s `meta.agentMeta.usage`',
    testedWith: 'frames recorded from the real OpenClaw 2026.9.6 (see below)',
  },
  // OpenClaw reads no instruction file from the work directory.
  defaults: { contextFileName: 'AGENTS.md', skillsDirectory: 'skills', mcpDelivery: 'none', inlineRuntimeBrief: true },
  identities: [{ identity: 'openclaw', displayName: 'OpenClaw', commandName: 'openclaw', provider: null, verification: 'recorded-frames' }],
});
