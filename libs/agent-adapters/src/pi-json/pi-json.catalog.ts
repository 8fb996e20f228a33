import { PROCESS_GROUP_KILL } from '../family-kit/process-group.kill';
import { defineProtocolFamily } from '../family-kit/runtime-identity.types';

/** Pi's `--mode json` and its fork Oh My Pi (see `PiDialect`). */
export const PI_JSON_FAMILY = defineProtocolFamily({
  family: 'pi-json',
  description: {
    displayName: 'Pi JSON',
    adapter: 'available',
    launch: '`-p --mode json`; the provider and model in the agent directory `$PI_CODING_AGENT_DIR` (`models.json`, omp `models.yml`)',
    promptDelivery: 'stdin, closed after writing (print mode reads it to the end)',
    resume: '`--session <id>` (omp: `--resume`) on the session store in the agent directory; `No session found` (omp: `Session "<id>" not found`) is a rejected resume',
    cancel: PROCESS_GROUP_KILL,
    usage: 'The usage of each assistant `message_end`, summed per model',
    testedWith: '**real CLI**: Pi 0.73.1; frames: Oh My Pi',
  },
  defaults: { contextFileName: 'AGENTS.md', skillsDirectory: '.pi/skills', mcpDelivery: 'none', inlineRuntimeBrief: false },
  identities: [
    { identity: 'pi', displayName: 'Pi', commandName: 'pi', provider: null, verification: 'real-cli' },
    { identity: 'omp', displayName: 'Oh My Pi', commandName: 'omp', provider: null, skillsDirectory: '.omp/skills', verification: 'recorded-frames' },
  ],
});
