import { PROCESS_GROUP_KILL } from '../family-kit/process-group.kill';
import { defineProtocolFamily } from '../family-kit/runtime-identity.types';

/** GitHub Copilot CLI in prompt mode with JSONL output. */
export const COPILOT_JSONL_FAMILY = defineProtocolFamily({
  family: 'copilot-jsonl',
  description: {
    displayName: 'Copilot JSONL',
    adapter: 'available',
    launch:
      '`--output-format json --allow-all --no-ask-user --usage-output-file <f>`, offline against an OpenAI-compatible provider (`COPILOT_OFFLINE`, `COPILOT_PROVIDER_*`); a fresh run gets a minted `--session-id`',
    promptDelivery: 'One `--prompt=<text>` argument (so a leading `-` is not read as a flag)',
    resume: '`--resume <id>`; stderr `No session, task, or name matched` is a rejected resume',
    cancel: PROCESS_GROUP_KILL,
    usage: 'The usage file the CLI writes at exit, minus what the resumed session had already counted; booked to the provider the CLI names for the model, else the identity’s (`github`), never an empty one',
    testedWith: '**real CLI**: GitHub Copilot CLI 1.0.102',
  },
  defaults: { contextFileName: 'AGENTS.md', skillsDirectory: '.github/skills', mcpDelivery: 'copilot-config-file', inlineRuntimeBrief: false },
  identities: [{ identity: 'copilot', displayName: 'GitHub Copilot CLI', commandName: 'copilot', provider: 'github', verification: 'real-cli' }],
});
