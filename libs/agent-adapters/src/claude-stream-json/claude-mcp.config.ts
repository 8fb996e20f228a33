import type { McpArtefacts } from '../mcp/mcp-artefacts.types';
import { asJsonObject, type JsonObject, type McpServer, type WorkDirectoryFiles } from '../mcp/mcp-server.types';

/** Our own file, never the user's `.mcp.json`: replaced whole each task, so nothing stale survives. */
export const CLAUDE_MCP_CONFIG_PATH = '.switchyard/mcp/claude-mcp.json';

/** Claude Code `.mcp.json` shape: `{ mcpServers: { <name>: { type, command, args, env } | { type, url, headers } } }`. */
export function toClaudeMcpJson(servers: readonly McpServer[]): JsonObject {
  const mcpServers: JsonObject = {};
  for (const server of servers) {
    mcpServers[server.name] =
      server.kind === 'stdio'
        ? { type: 'stdio', command: server.command, args: server.args, env: asJsonObject(server.env) }
        : { type: server.kind, url: server.url, headers: asJsonObject(server.headers) };
  }
  return { mcpServers };
}

/** Writes the Claude config file (mode 0600: server env may hold secrets) and returns its path. */
export async function writeClaudeMcpConfig(options: { files: WorkDirectoryFiles; servers: readonly McpServer[] }): Promise<string> {
  const { path } = await options.files.writeIfChanged(CLAUDE_MCP_CONFIG_PATH, `${JSON.stringify(toClaudeMcpJson(options.servers), null, 2)}\n`, 0o600);
  return path;
}

/**
 * The flags that hand Claude Code its servers: our file, and `--strict-mcp-config` so no
 * `.mcp.json` of the repository or user config adds servers the agent was not given.
 */
export function claudeMcpArgs(mcp: McpArtefacts | undefined): string[] {
  return mcp?.kind === 'claude-config-file' ? ['--mcp-config', mcp.path, '--strict-mcp-config'] : [];
}
