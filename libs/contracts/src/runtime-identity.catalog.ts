import type { ProtocolFamily } from './runtime-events.schema';

/** How a CLI receives the agent's MCP servers. */
export type McpDelivery =
  /** A JSON file with `mcpServers`, passed with `--mcp-config <file>` (Claude adds `--strict-mcp-config`). */
  | 'claude-config-file'
  /** `mcpServers` merged into the CLI's project settings file (Gemini CLI and its Qwen fork). */
  | 'gemini-settings-file'
  /** `[mcp_servers.<name>]` text for a throwaway `CODEX_HOME/config.toml`. */
  | 'codex-config-toml'
  /** The `mcpServers` array of ACP `session/new` / `session/load`. */
  | 'acp-session'
  /** JSON in the `OPENCODE_CONFIG_CONTENT` environment variable. */
  | 'opencode-config-content'
  /** Not delivered: the CLI has no per-run MCP input the daemon can use. */
  | 'none';

/** Where a runtime identity stands: driven in CI against its real CLI, or only against recorded / documented frames. */
export type RuntimeVerification = 'real-cli' | 'recorded-frames';

/**
 * Where a CLI keeps a session it can resume, so the daemon can check the session is still there
 * before asking for it. The root is the first of `rootEnv` set in the child's environment, else
 * `<HOME>/<homeFolder>`; under it, `sessionFile` with `{project}` (the work directory with every
 * character but [A-Za-z0-9] turned into '-') and `{sessionId}`.
 */
export interface SessionStoreLayout {
  readonly rootEnv: readonly string[];
  readonly homeFolder: string;
  readonly sessionFile: string;
  /** The CLI shortens longer project folders in a way not reproduced here: the store is then not checked. */
  readonly projectFolderMaxLength: number | null;
}

/** How the daemon asks a CLI for the models it can use; each non-empty output line is one model id. */
export interface ModelDiscovery {
  readonly args: readonly string[];
}

/**
 * A CLI Switchyard knows by name: how to find it, start it and prepare its work directory. Vendor
 * protocol details stay in the family's adapter; this is what the daemon, the gateway and docs share.
 */
export interface RuntimeIdentityDescriptor {
  /** Stable id, also part of a runtime id (`<daemonId>-<identity>`). */
  readonly identity: string;
  readonly displayName: string;
  /** The executable looked up on PATH to detect it, and run by default. */
  readonly commandName: string;
  readonly protocolFamily: ProtocolFamily;
  /** The model provider it talks to by default, when it has one. */
  readonly provider: string | null;
  /** The identity's own subcommand or flags, after the executable and before the adapter's arguments (`kimi acp`). */
  readonly launchArgs: readonly string[];
  /** Arguments that print the version and exit. */
  readonly versionArgs: readonly string[];
  /** Environment the version probe needs so the CLI neither relaunches nor phones home. */
  readonly probeEnv?: Readonly<Record<string, string>>;
  /** Instruction file the CLI reads from its working directory. */
  readonly contextFileName: string;
  /** Work-directory-relative folder holding `<skill>/SKILL.md`. */
  readonly skillsDirectory: string;
  readonly mcpDelivery: McpDelivery;
  /** Work-directory-relative settings file, for `gemini-settings-file`. */
  readonly settingsFile: string | null;
  /** The CLI reads no context file: the runtime brief goes in front of the prompt. */
  readonly inlineRuntimeBrief: boolean;
  readonly modelDiscovery: ModelDiscovery | null;
  /**
   * Where the CLI keeps its sessions, verified against the real CLI; null where that is not known
   * (the CLI's own refusal of a resume then drives the fresh retry).
   */
  readonly sessionStore: SessionStoreLayout | null;
  /** ACP only: the method that reopens a session, as the agent documents it. */
  readonly acpResumeMethod?: 'session/resume' | 'session/load';
  readonly verification: RuntimeVerification;
}

type IdentityFacts = Pick<RuntimeIdentityDescriptor, 'identity' | 'displayName' | 'commandName' | 'protocolFamily' | 'provider' | 'verification'> &
  Partial<Omit<RuntimeIdentityDescriptor, 'identity' | 'displayName' | 'commandName' | 'protocolFamily' | 'provider' | 'verification'>>;

/** Defaults per family: what every identity of the family reads unless it says otherwise. */
const FAMILY_DEFAULTS: Record<ProtocolFamily, Pick<RuntimeIdentityDescriptor, 'contextFileName' | 'skillsDirectory' | 'mcpDelivery' | 'inlineRuntimeBrief'>> = {
  'claude-stream-json': { contextFileName: 'CLAUDE.md', skillsDirectory: '.claude/skills', mcpDelivery: 'claude-config-file', inlineRuntimeBrief: false },
  // The cross-vendor Agent Skills folder: Codex reads it from the cwd up, Gemini CLI and OpenCode too.
  'codex-app-server': { contextFileName: 'AGENTS.md', skillsDirectory: '.agents/skills', mcpDelivery: 'codex-config-toml', inlineRuntimeBrief: false },
  acp: { contextFileName: 'AGENTS.md', skillsDirectory: '.agents/skills', mcpDelivery: 'acp-session', inlineRuntimeBrief: false },
  'opencode-ndjson': { contextFileName: 'AGENTS.md', skillsDirectory: '.opencode/skills', mcpDelivery: 'opencode-config-content', inlineRuntimeBrief: false },
  'pi-json': { contextFileName: 'AGENTS.md', skillsDirectory: '.pi/skills', mcpDelivery: 'none', inlineRuntimeBrief: false },
  'copilot-jsonl': { contextFileName: 'AGENTS.md', skillsDirectory: '.github/skills', mcpDelivery: 'none', inlineRuntimeBrief: false },
  // OpenClaw reads no instruction file from the work directory.
  'openclaw-jsonl': { contextFileName: 'AGENTS.md', skillsDirectory: 'skills', mcpDelivery: 'none', inlineRuntimeBrief: true },
  'dsh-jsonl': { contextFileName: 'AGENTS.md', skillsDirectory: '.dsh/skills', mcpDelivery: 'none', inlineRuntimeBrief: false },
  'antigravity-json': { contextFileName: 'AGENTS.md', skillsDirectory: '.agents/skills', mcpDelivery: 'none', inlineRuntimeBrief: false },
};

/** The layout a family gives a command it does not know by name (a runtime profile). */
export function familyLayout(family: ProtocolFamily): Pick<RuntimeIdentityDescriptor, 'contextFileName' | 'skillsDirectory' | 'mcpDelivery' | 'settingsFile' | 'inlineRuntimeBrief'> {
  return { ...FAMILY_DEFAULTS[family], settingsFile: null };
}

const identity = (facts: IdentityFacts): RuntimeIdentityDescriptor => ({
  launchArgs: [],
  versionArgs: ['--version'],
  settingsFile: null,
  modelDiscovery: null,
  sessionStore: null,
  ...FAMILY_DEFAULTS[facts.protocolFamily],
  ...facts,
});

/**
 * Every built-in runtime identity (design §5). Launch subcommands, files and resume methods are the
 * CLIs' documented behaviour; `verification` says which are proven against the real CLI in CI.
 */
export const RUNTIME_IDENTITY_CATALOG: readonly RuntimeIdentityDescriptor[] = [
  // Claude stream-json
  identity({
    identity: 'claude-code',
    displayName: 'Claude Code',
    commandName: 'claude',
    protocolFamily: 'claude-stream-json',
    provider: 'anthropic',
    probeEnv: { DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
    // Checked on 2.1.x: `/tmp/probe.cwd_x-8dIpKx/a.b_c d~e` is stored under `-tmp-probe-cwd-x-8dIpKx-a-b-c-d-e`;
    // folders over 200 characters get a hash suffix.
    sessionStore: { rootEnv: ['CLAUDE_CONFIG_DIR'], homeFolder: '.claude', sessionFile: 'projects/{project}/{sessionId}.jsonl', projectFolderMaxLength: 200 },
    verification: 'real-cli',
  }),
  identity({
    identity: 'qwen-code',
    displayName: 'Qwen Code',
    commandName: 'qwen',
    protocolFamily: 'claude-stream-json',
    provider: 'qwen',
    probeEnv: { QWEN_CODE_NO_RELAUNCH: 'true' },
    contextFileName: 'QWEN.md',
    skillsDirectory: '.qwen/skills',
    mcpDelivery: 'gemini-settings-file',
    settingsFile: '.qwen/settings.json',
    // Checked on 0.15.x: the runtime dir is QWEN_RUNTIME_DIR, else QWEN_HOME, else ~/.qwen; the
    // project folder is the cwd with the same substitution as Claude's, not shortened.
    sessionStore: { rootEnv: ['QWEN_RUNTIME_DIR', 'QWEN_HOME'], homeFolder: '.qwen', sessionFile: 'projects/{project}/chats/{sessionId}.jsonl', projectFolderMaxLength: null },
    verification: 'real-cli',
  }),
  identity({
    identity: 'codebuddy',
    displayName: 'CodeBuddy',
    commandName: 'codebuddy',
    protocolFamily: 'claude-stream-json',
    provider: 'tencent',
    contextFileName: 'CODEBUDDY.md',
    skillsDirectory: '.codebuddy/skills',
    verification: 'recorded-frames',
  }),
  identity({
    identity: 'cursor-agent',
    displayName: 'Cursor Agent',
    commandName: 'cursor-agent',
    protocolFamily: 'claude-stream-json',
    provider: 'cursor',
    contextFileName: 'AGENTS.md',
    skillsDirectory: '.cursor/skills',
    mcpDelivery: 'none',
    verification: 'recorded-frames',
  }),
  // Codex app-server
  identity({ identity: 'codex', displayName: 'Codex', commandName: 'codex', protocolFamily: 'codex-app-server', provider: 'openai', verification: 'real-cli' }),
  // ACP agents on the shared ACP client
  identity({
    identity: 'gemini-cli',
    displayName: 'Gemini CLI',
    commandName: 'gemini',
    protocolFamily: 'acp',
    provider: 'google',
    launchArgs: ['--acp'],
    probeEnv: { GEMINI_CLI_NO_RELAUNCH: 'true' },
    contextFileName: 'GEMINI.md',
    skillsDirectory: '.gemini/skills',
    acpResumeMethod: 'session/load',
    verification: 'real-cli',
  }),
  identity({ identity: 'hermes', displayName: 'Hermes Agent', commandName: 'hermes', protocolFamily: 'acp', provider: null, launchArgs: ['acp'], acpResumeMethod: 'session/resume', verification: 'recorded-frames' }),
  identity({
    identity: 'kimi',
    displayName: 'Kimi CLI',
    commandName: 'kimi',
    protocolFamily: 'acp',
    provider: 'moonshot',
    launchArgs: ['acp'],
    skillsDirectory: '.kimi/skills',
    inlineRuntimeBrief: true,
    acpResumeMethod: 'session/resume',
    verification: 'recorded-frames',
  }),
  identity({
    identity: 'kiro',
    displayName: 'Kiro CLI',
    commandName: 'kiro-cli',
    protocolFamily: 'acp',
    provider: 'aws',
    launchArgs: ['acp', '--trust-all-tools'],
    skillsDirectory: '.kiro/skills',
    acpResumeMethod: 'session/load',
    verification: 'recorded-frames',
  }),
  identity({
    identity: 'qoder',
    displayName: 'Qoder CLI',
    commandName: 'qodercli',
    protocolFamily: 'acp',
    provider: 'qoder',
    launchArgs: ['--yolo', '--acp'],
    skillsDirectory: '.qoder/skills',
    acpResumeMethod: 'session/resume',
    verification: 'recorded-frames',
  }),
  identity({
    identity: 'reasonix',
    displayName: 'Reasonix',
    commandName: 'reasonix',
    protocolFamily: 'acp',
    provider: null,
    launchArgs: ['acp', '--profile', 'balanced'],
    skillsDirectory: '.reasonix/skills',
    acpResumeMethod: 'session/resume',
    verification: 'recorded-frames',
  }),
  identity({
    identity: 'trae',
    displayName: 'Trae CLI',
    commandName: 'traecli',
    protocolFamily: 'acp',
    provider: 'bytedance',
    launchArgs: ['acp', 'serve', '--yolo'],
    inlineRuntimeBrief: true,
    acpResumeMethod: 'session/load',
    verification: 'recorded-frames',
  }),
  identity({
    identity: 'grok',
    displayName: 'Grok CLI',
    commandName: 'grok',
    protocolFamily: 'acp',
    provider: 'xai',
    launchArgs: ['--no-auto-update', 'agent', '--always-approve', 'stdio'],
    acpResumeMethod: 'session/load',
    verification: 'recorded-frames',
  }),
  identity({
    identity: 'qwenpaw',
    displayName: 'QwenPaw',
    commandName: 'qwenpaw',
    protocolFamily: 'acp',
    provider: 'qwen',
    launchArgs: ['acp'],
    skillsDirectory: '.qwenpaw/skills',
    inlineRuntimeBrief: true,
    acpResumeMethod: 'session/load',
    verification: 'recorded-frames',
  }),
  identity({
    identity: 'mcode',
    displayName: 'MiniMax Code',
    commandName: 'mcode',
    protocolFamily: 'acp',
    provider: 'minimax',
    launchArgs: ['acp'],
    skillsDirectory: '.minimax/skills',
    acpResumeMethod: 'session/load',
    verification: 'recorded-frames',
  }),
  identity({ identity: 'dim', displayName: 'Dim', commandName: 'dim', protocolFamily: 'acp', provider: null, launchArgs: ['acp'], acpResumeMethod: 'session/load', verification: 'recorded-frames' }),
  // OpenCode NDJSON
  identity({
    identity: 'opencode',
    displayName: 'OpenCode',
    commandName: 'opencode',
    protocolFamily: 'opencode-ndjson',
    provider: null,
    modelDiscovery: { args: ['models'] },
    verification: 'real-cli',
  }),
  identity({ identity: 'codearts', displayName: 'CodeArts Agent', commandName: 'codearts', protocolFamily: 'opencode-ndjson', provider: 'huawei', verification: 'recorded-frames' }),
  identity({
    identity: 'deveco',
    displayName: 'DevEco Code Genie',
    commandName: 'deveco',
    protocolFamily: 'opencode-ndjson',
    provider: 'huawei',
    skillsDirectory: '.deveco/skills',
    verification: 'recorded-frames',
  }),
  // Pi JSON
  identity({ identity: 'pi', displayName: 'Pi', commandName: 'pi', protocolFamily: 'pi-json', provider: null, verification: 'real-cli' }),
  identity({ identity: 'omp', displayName: 'Oh My Pi', commandName: 'omp', protocolFamily: 'pi-json', provider: null, skillsDirectory: '.omp/skills', verification: 'recorded-frames' }),
  // The others, one identity each
  identity({ identity: 'copilot', displayName: 'GitHub Copilot CLI', commandName: 'copilot', protocolFamily: 'copilot-jsonl', provider: 'github', verification: 'real-cli' }),
  identity({
    identity: 'openclaw',
    displayName: 'OpenClaw',
    commandName: 'openclaw',
    protocolFamily: 'openclaw-jsonl',
    provider: null,
    inlineRuntimeBrief: true,
    verification: 'recorded-frames',
  }),
  identity({ identity: 'dsh', displayName: 'DSH', commandName: 'dsh', protocolFamily: 'dsh-jsonl', provider: null, verification: 'recorded-frames' }),
  identity({ identity: 'antigravity', displayName: 'Antigravity', commandName: 'agy', protocolFamily: 'antigravity-json', provider: 'google', verification: 'recorded-frames' }),
];

/** The built-in identity with this id, if any. */
export function runtimeIdentityDescriptor(identityId: string): RuntimeIdentityDescriptor | undefined {
  return RUNTIME_IDENTITY_CATALOG.find((entry) => entry.identity === identityId);
}
