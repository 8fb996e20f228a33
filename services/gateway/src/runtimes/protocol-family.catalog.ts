import type { ProtocolFamily } from '@switchyard/contracts';

/** What a client needs to know about one wire protocol family before it picks a runtime or writes a profile. */
export interface ProtocolFamilyDescription {
  readonly displayName: string;
  /** CLIs that speak it (each a runtime identity, or a profile's command). */
  readonly runtimes: readonly string[];
  /** `available`: an adapter in `libs/agent-adapters` runs it today; `planned`: accepted, not yet runnable. */
  readonly adapter: 'available' | 'planned';
  readonly resume: string;
  readonly cancel: string;
  readonly usage: string;
}

const PROCESS_GROUP_KILL = 'The daemon ends the whole process group (TERM, then KILL after a grace period).';

/**
 * One entry per family of the contracts' `PROTOCOL_FAMILIES`: a `Record`, so a new family fails to
 * compile until it is described here. Facts of the available adapters come from
 * `libs/agent-adapters`; planned families say what the CLI offers, to be confirmed by their adapter.
 */
export const PROTOCOL_FAMILY_CATALOG: Readonly<Record<ProtocolFamily, ProtocolFamilyDescription>> = {
  'claude-stream-json': {
    displayName: 'Claude stream-json',
    runtimes: ['Claude Code', 'Qwen Code', 'CodeBuddy', 'Cursor'],
    adapter: 'available',
    resume: '`--resume <sessionId>`; a rejected resume before any tool ran is retried once fresh.',
    cancel: `In-band \`interrupt\` control request for a turn; cancel: ${PROCESS_GROUP_KILL}`,
    usage: 'Per model, from the final `result` event (`modelUsage`), cache reads and writes included.',
  },
  'codex-app-server': {
    displayName: 'Codex app-server (JSON-RPC)',
    runtimes: ['Codex'],
    adapter: 'available',
    resume: '`thread/resume` with the thread id as session id.',
    cancel: `\`turn/interrupt\` for a turn; cancel: ${PROCESS_GROUP_KILL}`,
    usage: 'Running totals from `thread/tokenUsage/updated` notifications.',
  },
  acp: {
    displayName: 'Agent Client Protocol',
    runtimes: ['Gemini CLI', 'Hermes', 'Kimi', 'Kiro', 'Qoder', 'Grok'],
    adapter: 'available',
    resume: '`session/resume` when the agent advertises it, otherwise `session/load`.',
    cancel: `\`session/cancel\`, then, after a short grace, ${PROCESS_GROUP_KILL.charAt(0).toLowerCase()}${PROCESS_GROUP_KILL.slice(1)}`,
    usage: 'Not part of ACP v1: only where the agent adds it to the prompt result’s `_meta` (Gemini CLI does).',
  },
  'opencode-ndjson': {
    displayName: 'OpenCode NDJSON',
    runtimes: ['OpenCode'],
    adapter: 'planned',
    resume: 'The CLI continues a session by id (`--session`).',
    cancel: PROCESS_GROUP_KILL,
    usage: 'Token counts reported per step in the event stream.',
  },
  'pi-json': {
    displayName: 'Pi JSON',
    runtimes: ['Pi', 'OMP'],
    adapter: 'planned',
    resume: 'The CLI continues a session file (`--session`).',
    cancel: PROCESS_GROUP_KILL,
    usage: 'Usage carried on assistant messages in the JSON stream.',
  },
  'copilot-jsonl': {
    displayName: 'Copilot JSONL',
    runtimes: ['GitHub Copilot CLI'],
    adapter: 'planned',
    resume: 'The CLI resumes a session by id (`--resume`).',
    cancel: PROCESS_GROUP_KILL,
    usage: 'To be confirmed by its adapter.',
  },
  'openclaw-jsonl': {
    displayName: 'OpenClaw JSONL',
    runtimes: ['OpenClaw'],
    adapter: 'planned',
    resume: 'To be confirmed by its adapter.',
    cancel: PROCESS_GROUP_KILL,
    usage: 'To be confirmed by its adapter.',
  },
  'dsh-jsonl': {
    displayName: 'DSH versioned JSONL',
    runtimes: ['DSH'],
    adapter: 'planned',
    resume: 'To be confirmed by its adapter.',
    cancel: PROCESS_GROUP_KILL,
    usage: 'To be confirmed by its adapter.',
  },
  'antigravity-json': {
    displayName: 'Antigravity print / stream JSON',
    runtimes: ['Antigravity'],
    adapter: 'planned',
    resume: 'To be confirmed by its adapter.',
    cancel: PROCESS_GROUP_KILL,
    usage: 'To be confirmed by its adapter.',
  },
};
