import { PROCESS_GROUP_KILL } from '../family-kit/process-group.kill';
import { defineProtocolFamily } from '../family-kit/runtime-identity.types';

/** Antigravity's print mode: plain text, or stream JSON from 1.1.8. */
export const ANTIGRAVITY_JSON_FAMILY = defineProtocolFamily({
  family: 'antigravity-json',
  description: {
    displayName: 'Antigravity print / stream JSON',
    adapter: 'available',
    launch: '`--dangerously-skip-permissions --print-timeout <d> --log-file <f> --add-dir <cwd>`; `--output-format stream-json` from 1.1.8, plain text before',
    promptDelivery: 'One argument (`-p <prompt>`, last)',
    resume: '`--conversation <id>`; the id is read from the run’s log file when the output does not carry it; a refusal cannot be seen',
    cancel: PROCESS_GROUP_KILL,
    usage: 'The stream-JSON `result` totals; none in plain-text mode',
    testedWith: 'frames + a scripted `agy`',
  },
  defaults: { contextFileName: 'AGENTS.md', skillsDirectory: '.agents/skills', mcpDelivery: 'none', inlineRuntimeBrief: false },
  identities: [{ identity: 'antigravity', displayName: 'Antigravity', commandName: 'agy', provider: 'google', verification: 'recorded-frames' }],
});
