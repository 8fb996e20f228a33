import type { JsonObject } from './mcp-server.types';

/**
 * The agent's MCP servers in the native form of the CLI a run launches (rendered, and for
 * file-based CLIs written, by `writeMcpConfig`); the family's backend hands them to the CLI.
 * `serverNames` were delivered; `undeliveredServerNames` the CLI cannot take, said in the timeline.
 */
export type McpArtefacts =
  | { kind: 'none' }
  /** Passed as `--mcp-config <path> --strict-mcp-config`. */
  | { kind: 'claude-config-file'; path: string; serverNames: string[] }
  /** Passed as `--additional-mcp-config @<path>` (Copilot CLI). */
  | { kind: 'copilot-config-file'; path: string; serverNames: string[] }
  /** Passed as `--mcp-config <path> --allowed-mcp-server-names <names>` (Qwen Code). */
  | { kind: 'qwen-config-file'; path: string; serverNames: string[] }
  /** Merged into the work directory's project settings, which the CLI reads itself. */
  | { kind: 'gemini-settings-file'; path: string; serverNames: string[] }
  /** `config.mcp_servers` of Codex's `thread/start` / `thread/resume`: per thread, never the shared `CODEX_HOME`. */
  | { kind: 'codex-thread-config'; mcpServers: JsonObject; serverNames: string[]; undeliveredServerNames: string[] }
  /** ACP `mcpServers` of `session/new` / `session/load`; http/sse entries only if the agent advertises them. */
  | { kind: 'acp-session'; mcpServers: JsonObject[]; serverNames: string[] }
  /** JSON in an environment variable the launcher sets (OpenCode's `OPENCODE_CONFIG_CONTENT`). */
  | { kind: 'opencode-config-content'; environmentVariable: string; content: string; serverNames: string[] }
  /** The CLI has no MCP delivery here: surfaced as a warning, never pretended. */
  | { kind: 'unsupported'; undeliveredServerNames: string[] };
