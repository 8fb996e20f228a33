import type { ProtocolFamily } from '@switchyard/contracts';

/** Which CLI the environment is for: its wire family and, when known, its identity (`qwen-code`, `gemini-cli`). */
export interface RuntimeTarget {
  protocolFamily: ProtocolFamily;
  identity?: string | null;
}

/** How a CLI receives MCP servers. */
export type McpDelivery =
  /** A JSON file with `mcpServers`, passed with `--mcp-config <file> --strict-mcp-config`. */
  | 'claude-config-file'
  /** `mcpServers` merged into the CLI's project settings file (Gemini CLI and its Qwen fork). */
  | 'gemini-settings-file'
  /** `[mcp_servers.<name>]` text for a throwaway `CODEX_HOME/config.toml`. */
  | 'codex-config-toml'
  /** The `mcpServers` array of ACP `session/new` / `session/load`. */
  | 'acp-session'
  /** JSON in the `OPENCODE_CONFIG_CONTENT` environment variable. */
  | 'opencode-config-content'
  | 'none';

export interface RuntimeLayout {
  /** Instruction file the CLI reads from its working directory. */
  contextFileName: string;
  /** Work-directory-relative folder holding `<skill>/SKILL.md`. */
  skillsDirectory: string;
  mcpDelivery: McpDelivery;
  /** Work-directory-relative settings file, for `gemini-settings-file`. */
  settingsFile: string | null;
}

const defaults = (overrides: Partial<RuntimeLayout>): RuntimeLayout => ({
  contextFileName: 'AGENTS.md',
  // The cross-vendor Agent Skills folder: Codex reads it from the cwd up, Gemini CLI and OpenCode too.
  skillsDirectory: '.agents/skills',
  mcpDelivery: 'none',
  settingsFile: null,
  ...overrides,
});

/** One entry per family; a `Record` so a new family in contracts fails to compile until placed here. */
const FAMILY_LAYOUTS: Record<ProtocolFamily, RuntimeLayout> = {
  'claude-stream-json': defaults({ contextFileName: 'CLAUDE.md', skillsDirectory: '.claude/skills', mcpDelivery: 'claude-config-file' }),
  'codex-app-server': defaults({ mcpDelivery: 'codex-config-toml' }),
  acp: defaults({ mcpDelivery: 'acp-session' }),
  'opencode-ndjson': defaults({ skillsDirectory: '.opencode/skills', mcpDelivery: 'opencode-config-content' }),
  'pi-json': defaults({ skillsDirectory: '.pi/skills' }),
  'copilot-jsonl': defaults({ skillsDirectory: '.github/skills' }),
  'openclaw-jsonl': defaults({ skillsDirectory: 'skills' }),
  'dsh-jsonl': defaults({ skillsDirectory: '.dsh/skills' }),
  'antigravity-json': defaults({}),
};

/** Identities that share a family but read other files. */
const IDENTITY_OVERRIDES: Readonly<Record<string, Partial<RuntimeLayout>>> = {
  'qwen-code': {
    contextFileName: 'QWEN.md',
    skillsDirectory: '.qwen/skills',
    mcpDelivery: 'gemini-settings-file',
    settingsFile: '.qwen/settings.json',
  },
  codebuddy: { contextFileName: 'CODEBUDDY.md', skillsDirectory: '.codebuddy/skills' },
  'cursor-agent': { contextFileName: 'AGENTS.md', skillsDirectory: '.cursor/skills', mcpDelivery: 'none' },
  'gemini-cli': { contextFileName: 'GEMINI.md', skillsDirectory: '.gemini/skills' },
  kimi: { skillsDirectory: '.kimi/skills' },
  kiro: { skillsDirectory: '.kiro/skills' },
  qoder: { skillsDirectory: '.qoder/skills' },
  omp: { skillsDirectory: '.omp/skills' },
};

export function runtimeLayoutFor(target: RuntimeTarget): RuntimeLayout {
  const base = FAMILY_LAYOUTS[target.protocolFamily];
  const override = target.identity ? IDENTITY_OVERRIDES[target.identity] : undefined;
  return override ? { ...base, ...override } : base;
}
