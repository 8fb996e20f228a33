import { PROCESS_GROUP_KILL } from '../family-kit/process-group.kill';
import { defineProtocolFamily } from '../family-kit/runtime-identity.types';

/** DSH's versioned JSONL frames on stdio. */
export const DSH_JSONL_FAMILY = defineProtocolFamily({
  family: 'dsh-jsonl',
  description: {
    displayName: 'DSH versioned JSONL',
    adapter: 'available',
    launch: '`--profile switchyard --stdio`; frames carry a protocol version that is checked',
    promptDelivery: 'An `execute` frame on stdin (resume id, model, MCP servers) after DSH’s `ready`',
    resume: '`resume_session_id` in the execute frame; the `session` frame says `resumed` or `resume_rejected`',
    cancel: `A \`cancel\` frame, then, after a grace, ${PROCESS_GROUP_KILL}`,
    usage: 'From `usage` frames',
    testedWith: 'frames + a scripted DSH',
  },
  defaults: { contextFileName: 'AGENTS.md', skillsDirectory: '.dsh/skills', mcpDelivery: 'none', inlineRuntimeBrief: false },
  identities: [{ identity: 'dsh', displayName: 'DSH', commandName: 'dsh', provider: null, verification: 'recorded-frames' }],
});
