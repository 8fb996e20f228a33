import { toAcpMcpServers } from '../acp/acp-mcp.servers';
import { GEMINI_SETTINGS_FILE, mergeGeminiSettings } from '../acp/gemini-mcp.settings';
import { runtimeLayoutFor } from '../catalog/runtime-identity.catalog';
import type { RuntimeTarget } from '../family-kit/runtime-identity.types';
import { writeClaudeMcpConfig } from '../claude-stream-json/claude-mcp.config';
import { toCodexMcpToml } from '../codex-app-server/codex-mcp.toml';
import type { JsonObject, McpServer, WorkDirectoryFiles } from '../mcp/mcp-server.types';
import { OPENCODE_CONFIG_CONTENT_VARIABLE, toOpenCodeConfigContent } from '../opencode-ndjson/opencode-mcp.config';

/** What the launcher needs to hand the servers to the CLI. */
export type McpArtefacts =
  | { kind: 'none' }
  | { kind: 'claude-config-file'; path: string; serverNames: string[] }
  | { kind: 'gemini-settings-file'; path: string; serverNames: string[] }
  | { kind: 'codex-config-toml'; text: string; serverNames: string[]; undeliveredServerNames: string[] }
  | { kind: 'acp-session'; mcpServers: JsonObject[]; serverNames: string[] }
  | { kind: 'opencode-config-content'; environmentVariable: typeof OPENCODE_CONFIG_CONTENT_VARIABLE; content: string; serverNames: string[] }
  /** The CLI has no MCP delivery here yet: surface as a diagnostic, do not pretend. */
  | { kind: 'unsupported'; undeliveredServerNames: string[] };

/**
 * Renders (and for file-based CLIs writes) the servers in the target CLI's native form, as its
 * catalog entry says it takes them; each form lives in the folder of the family that defines it.
 */
export async function writeMcpConfig(options: { target: RuntimeTarget; servers: readonly McpServer[]; files: WorkDirectoryFiles }): Promise<McpArtefacts> {
  const { servers, files } = options;
  const layout = runtimeLayoutFor(options.target);
  const serverNames = servers.map((server) => server.name);
  switch (layout.mcpDelivery) {
    case 'claude-config-file':
      // Written even when empty: with --strict-mcp-config an empty file means "no servers", not "whatever is lying around".
      return { kind: 'claude-config-file', path: await writeClaudeMcpConfig({ files, servers }), serverNames };
    case 'gemini-settings-file': {
      if (servers.length === 0) return { kind: 'none' };
      const { path } = await mergeGeminiSettings({ files, servers, settingsFile: layout.settingsFile ?? GEMINI_SETTINGS_FILE });
      return { kind: 'gemini-settings-file', path, serverNames };
    }
    case 'codex-config-toml': {
      const { text, undeliveredServerNames } = toCodexMcpToml(servers);
      return { kind: 'codex-config-toml', text, serverNames, undeliveredServerNames };
    }
    case 'acp-session':
      return { kind: 'acp-session', mcpServers: toAcpMcpServers(servers), serverNames };
    case 'opencode-config-content':
      if (servers.length === 0) return { kind: 'none' };
      return { kind: 'opencode-config-content', environmentVariable: OPENCODE_CONFIG_CONTENT_VARIABLE, content: toOpenCodeConfigContent(servers), serverNames };
    case 'none':
      return servers.length === 0 ? { kind: 'none' } : { kind: 'unsupported', undeliveredServerNames: serverNames };
  }
}
