import { RUNTIME_IDENTITY_CATALOG, type ProtocolFamily, type RuntimeIdentityDescriptor } from '@switchyard/contracts';
import type { ProtocolFamilyView, RuntimeIdentityView } from './protocol-family.schemas';

/** What a client needs to know about one wire protocol family before it picks a runtime or writes a profile. */
export interface ProtocolFamilyDescription {
  readonly displayName: string;
  /** `available`: an adapter in `libs/agent-adapters` runs it today; `planned`: accepted, not yet runnable. */
  readonly adapter: 'available' | 'planned';
  readonly launch: string;
  readonly promptDelivery: string;
  readonly resume: string;
  readonly cancel: string;
  readonly usage: string;
}

const PROCESS_GROUP_KILL = 'the daemon ends the whole process group (TERM, then KILL after a grace period)';

/**
 * One entry per family of the contracts' `PROTOCOL_FAMILIES`: a `Record`, so a new family fails to
 * compile until it is described here. The facts are the adapters' in `libs/agent-adapters`
 * (docs/architecture/protocol-families.md has the same table with how each is tested).
 */
export const PROTOCOL_FAMILY_CATALOG: Readonly<Record<ProtocolFamily, ProtocolFamilyDescription>> = {
  'claude-stream-json': {
    displayName: 'Claude stream-json',
    adapter: 'available',
    launch: '`-p --input-format stream-json --output-format stream-json --verbose` plus the identity’s permission flags (`--permission-mode bypassPermissions`, Qwen Code `--yolo --auth-type openai`, Cursor `--yolo`)',
    promptDelivery: 'One stream-json `user` line on stdin, closed after the result (Claude Code keeps it open for mid-run messages and the in-band interrupt); Cursor: plain text on stdin',
    resume: '`--resume <sessionId>`; a refusal (an error result, or Qwen Code’s stderr) is a rejected resume, retried once fresh when no tool ran; Cursor starts a new chat under an unknown id, so its refusal cannot be seen',
    cancel: `In-band \`interrupt\` control request for a turn; cancel: ${PROCESS_GROUP_KILL}`,
    usage: 'Per model, from the final `result` event (`modelUsage` or `usage`), cache reads and writes included; Qwen Code: summed over its `assistant` events, since its result totals the whole session',
  },
  'codex-app-server': {
    displayName: 'Codex app-server (JSON-RPC)',
    adapter: 'available',
    launch: '`app-server` (JSON-RPC over stdio) with a throwaway `CODEX_HOME`',
    promptDelivery: '`turn/start` input after `initialize` and `thread/start`',
    resume: '`thread/resume` with the thread id as session id; its JSON-RPC error is a rejected resume',
    cancel: `\`turn/interrupt\` for a turn; cancel: ${PROCESS_GROUP_KILL}`,
    usage: 'Running totals from `thread/tokenUsage/updated` notifications',
  },
  acp: {
    displayName: 'Agent Client Protocol',
    adapter: 'available',
    launch: 'The identity’s ACP subcommand (`gemini --acp`, `kimi acp`, `kiro-cli acp --trust-all-tools`, ...), over the official ACP SDK client',
    promptDelivery: '`session/prompt` after `initialize` and `session/new`',
    resume: 'The identity’s documented method (`session/resume` or `session/load`), else the one the agent advertises; an error answer is a rejected resume',
    cancel: `\`session/cancel\`, then, after a short grace, ${PROCESS_GROUP_KILL}`,
    usage: 'Not part of ACP v1: only where the agent adds it to the prompt result’s `_meta` (Gemini CLI does)',
  },
  'opencode-ndjson': {
    displayName: 'OpenCode NDJSON',
    adapter: 'available',
    launch: '`run --format json`; the work directory by `--dir` on versions that have it, else by the process cwd',
    promptDelivery: 'stdin, closed after writing (DevEco: one argument)',
    resume: '`--session <id>`; `Session not found` is a rejected resume',
    cancel: PROCESS_GROUP_KILL,
    usage: 'Summed from the token counts of each `step_finish` event',
  },
  'pi-json': {
    displayName: 'Pi JSON',
    adapter: 'available',
    launch: '`-p --mode json` with the provider and model',
    promptDelivery: 'stdin, closed after writing (print mode reads it to the end)',
    resume: '`--session <id>` (omp: `--resume`) on the session store in the agent directory; `No session found` is a rejected resume',
    cancel: PROCESS_GROUP_KILL,
    usage: 'From the usage on each assistant `message_end`, summed per model',
  },
  'copilot-jsonl': {
    displayName: 'Copilot JSONL',
    adapter: 'available',
    launch: '`--output-format json --allow-all --no-ask-user --usage-output-file <f>`, offline against an OpenAI-compatible provider (`COPILOT_OFFLINE`, `COPILOT_PROVIDER_*`); a fresh run gets a minted `--session-id`',
    promptDelivery: 'One `--prompt=<text>` argument (so a leading `-` is not read as a flag)',
    resume: '`--resume <sessionId>`; `No session, task, or name matched` on stderr is a rejected resume',
    cancel: PROCESS_GROUP_KILL,
    usage: 'From the usage file the CLI writes at exit, minus what the resumed session had already counted; provider: the one the CLI names for the model, else `github`',
  },
  'openclaw-jsonl': {
    displayName: 'OpenClaw JSON',
    adapter: 'available',
    launch: '`agent --local --json --session-id <id>`; the daemon mints the session id of a fresh run; the reply is one JSON document, pretty-printed over many lines',
    promptDelivery: 'One `--message=<text>` argument, with the runtime brief in front (OpenClaw reads no context file)',
    resume: 'The same `--session-id`; OpenClaw accepts any id, so a refusal cannot be seen',
    cancel: PROCESS_GROUP_KILL,
    usage: 'From the reply’s `meta.agentMeta.usage`',
  },
  'dsh-jsonl': {
    displayName: 'DSH versioned JSONL',
    adapter: 'available',
    launch: '`--stdio` with a profile; frames carry a protocol version that is checked',
    promptDelivery: 'An `execute` frame on stdin (with the resume id, model and MCP servers)',
    resume: '`resume_session_id` in the execute frame; the `session` frame says `resumed` or `resume_rejected`',
    cancel: `A \`cancel\` frame, then ${PROCESS_GROUP_KILL}`,
    usage: 'From `usage` frames',
  },
  'antigravity-json': {
    displayName: 'Antigravity print / stream JSON',
    adapter: 'available',
    launch: '`--dangerously-skip-permissions --print-timeout <d> --log-file <f> --add-dir <cwd>`; plain text before 1.1.8, `--output-format stream-json` from it',
    promptDelivery: 'One argument (`-p <prompt>`, last)',
    resume: '`--conversation <id>`; the id is read from the run’s log file when the output does not carry it; a refusal cannot be seen',
    cancel: PROCESS_GROUP_KILL,
    usage: 'From the stream JSON result on versions that emit it; none in plain-text mode',
  },
};

function identityView(descriptor: RuntimeIdentityDescriptor): RuntimeIdentityView {
  return {
    identity: descriptor.identity,
    displayName: descriptor.displayName,
    commandName: descriptor.commandName,
    launchArgs: [...descriptor.launchArgs],
    provider: descriptor.provider,
    contextFileName: descriptor.contextFileName,
    skillsDirectory: descriptor.skillsDirectory,
    mcpDelivery: descriptor.mcpDelivery,
    inlineRuntimeBrief: descriptor.inlineRuntimeBrief,
    modelDiscovery: descriptor.modelDiscovery ? [...descriptor.modelDiscovery.args] : null,
    acpResumeMethod: descriptor.acpResumeMethod ?? null,
    verification: descriptor.verification,
  };
}

/** One family as the API shows it: its description and the built-in identities that speak it. */
export function protocolFamilyView(family: ProtocolFamily): ProtocolFamilyView {
  const identities = RUNTIME_IDENTITY_CATALOG.filter((descriptor) => descriptor.protocolFamily === family).map(identityView);
  return { family, ...PROTOCOL_FAMILY_CATALOG[family], runtimes: identities.map((identity) => identity.displayName), identities };
}
