import type { ProtocolFamily } from '@switchyard/contracts';

/** How a CLI receives the agent's MCP servers. */
export type McpDelivery =
  /** A JSON file with `mcpServers`, passed with `--mcp-config <file>` (Claude adds `--strict-mcp-config`). */
  | 'claude-config-file'
  /** `mcpServers` merged into the CLI's project settings file (Gemini CLI and its Qwen fork). */
  | 'gemini-settings-file'
  /** A Gemini-form JSON file passed with `--mcp-config <file>`, only its servers allowed (Qwen Code). */
  | 'qwen-config-file'
  /** `mcp_servers` in the `config` override of Codex's `thread/start` / `thread/resume`. */
  | 'codex-thread-config'
  /** The `mcpServers` array of ACP `session/new` / `session/load`. */
  | 'acp-session'
  /** A JSON file passed with `--additional-mcp-config @<file>` (Copilot CLI). */
  | 'copilot-config-file'
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

/** The files a CLI reads in its work directory. */
export interface RuntimeLayout {
  /** Instruction file the CLI reads from its working directory. */
  readonly contextFileName: string;
  /** Work-directory-relative folder holding `<skill>/SKILL.md`. */
  readonly skillsDirectory: string;
  readonly mcpDelivery: McpDelivery;
  /** Work-directory-relative settings file, for `gemini-settings-file`. */
  readonly settingsFile: string | null;
  /** The CLI reads no context file: the runtime brief goes in front of the prompt. */
  readonly inlineRuntimeBrief: boolean;
}

/** What every identity of a family reads unless it says otherwise (and what a profile's command gets). */
export type FamilyLayoutDefaults = Omit<RuntimeLayout, 'settingsFile'>;

/**
 * A CLI Switchyard knows by name: how to find it, start it and prepare its work directory. It sits
 * in its family's folder (`<family>/<family>.catalog.ts`); the daemon, the gateway and the docs read it.
 */
export interface RuntimeIdentityDescriptor extends RuntimeLayout {
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

/** What a family's catalog states of one identity; the rest comes from the family's defaults. */
export type IdentityFacts = Pick<RuntimeIdentityDescriptor, 'identity' | 'displayName' | 'commandName' | 'provider' | 'verification'> &
  Partial<Omit<RuntimeIdentityDescriptor, 'identity' | 'displayName' | 'commandName' | 'provider' | 'verification' | 'protocolFamily'>>;

/**
 * What the families endpoint (`GET /api/runtimes/families`) and the table of
 * docs/architecture/protocol-families.md say about one wire protocol family.
 */
export interface ProtocolFamilyDescription {
  readonly displayName: string;
  /** `available`: an adapter in `libs/agent-adapters` runs it today; `planned`: accepted, not yet runnable. */
  readonly adapter: 'available' | 'planned';
  readonly launch: string;
  readonly promptDelivery: string;
  readonly resume: string;
  readonly cancel: string;
  readonly usage: string;
  /** The doc's "Tested with" column: the real CLI versions CI drives, or the frames it replays. */
  readonly testedWith: string;
}

/** One family's folder as data: its description and its built-in identities, defaults applied. */
export interface ProtocolFamilyCatalogEntry {
  readonly family: ProtocolFamily;
  readonly description: ProtocolFamilyDescription;
  readonly defaults: FamilyLayoutDefaults;
  readonly identities: readonly RuntimeIdentityDescriptor[];
}

/** A family's catalog entry from its facts: every identity gets the family and, unless it says otherwise, the family's defaults. */
export function defineProtocolFamily(entry: {
  readonly family: ProtocolFamily;
  readonly description: ProtocolFamilyDescription;
  readonly defaults: FamilyLayoutDefaults;
  readonly identities: readonly IdentityFacts[];
}): ProtocolFamilyCatalogEntry {
  const identities = entry.identities.map(
    (facts): RuntimeIdentityDescriptor => ({
      launchArgs: [],
      versionArgs: ['--version'],
      settingsFile: null,
      modelDiscovery: null,
      sessionStore: null,
      ...entry.defaults,
      ...facts,
      protocolFamily: entry.family,
    }),
  );
  return { family: entry.family, description: entry.description, defaults: entry.defaults, identities };
}

/** Which CLI: its wire family and, for a built-in, its identity (`qwen-code`); null for a command known only by family (a profile). */
export interface RuntimeTarget {
  readonly protocolFamily: ProtocolFamily;
  readonly identity?: string | null;
}
