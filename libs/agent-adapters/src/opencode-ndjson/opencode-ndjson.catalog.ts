import { PROCESS_GROUP_KILL } from '../family-kit/process-group.kill';
import { defineProtocolFamily } from '../family-kit/runtime-identity.types';

/** OpenCode's `run --format json` and its forks (see `OpenCodeDialect` for how they differ). */
export const OPENCODE_NDJSON_FAMILY = defineProtocolFamily({
  family: 'opencode-ndjson',
  description: {
    displayName: 'OpenCode NDJSON',
    adapter: 'available',
    launch: '`run --format json --dangerously-skip-permissions`; the work directory by `--dir <cwd>` on OpenCode 1.2.1 to 1.x, else by the process cwd and `PWD`',
    promptDelivery: 'stdin, closed at once (DevEco, CodeArts: words on argv after `--`)',
    resume: '`--session <id>`; `Error: Session not found` is a rejected resume',
    cancel: PROCESS_GROUP_KILL,
    usage: 'The token counts of each `step_finish` event, summed per model',
    testedWith: '**real CLI**: OpenCode 1.18.33; frames: DevEco Code Genie, CodeArts Agent',
  },
  defaults: { contextFileName: 'AGENTS.md', skillsDirectory: '.opencode/skills', mcpDelivery: 'opencode-config-content', inlineRuntimeBrief: false },
  identities: [
    { identity: 'opencode', displayName: 'OpenCode', commandName: 'opencode', provider: null, modelDiscovery: { args: ['models'] }, verification: 'real-cli' },
    { identity: 'codearts', displayName: 'CodeArts Agent', commandName: 'codearts', provider: 'huawei', verification: 'recorded-frames' },
    { identity: 'deveco', displayName: 'DevEco Code Genie', commandName: 'deveco', provider: 'huawei', skillsDirectory: '.deveco/skills', verification: 'recorded-frames' },
  ],
});
