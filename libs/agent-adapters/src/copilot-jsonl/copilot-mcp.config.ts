import type { McpArtefacts } from '../mcp/mcp-artefacts.types';
import { asJsonObject, type JsonObject, type McpServer, type WorkDirectoryFiles } from '../mcp/mcp-server.types';

/** Our own file in the work directory, replaced whole each task; never the runtime HOME's `~/.copilot/mcp-config.json`. */
export const COPILOT_MCP_CONFIG_PATH = '.switchyard/mcp/copilot-mcp.json';

/**
 * Copilot CLI's MCP config (its `api.schema.json` `McpServerConfigStdio` / `McpServerConfigHttp`):
 * every tool of each server (`tools: ["*"]`).
 */
export function toCopilotMcpJson(servers: readonly McpServer[]): JsonObject {
  const mcpServers: JsonObject = {};
  for (const server of servers) {
    mcpServers[server.name] =
      server.kind === 'stdio'
        ? { type: 'stdio', command: server.command, args: server.args, env: asJsonObject(server.env), tools: ['*'] }
        : { type: server.kind, url: server.url, headers: asJsonObject(server.headers), tools: ['*'] };
  }
  return { mcpServers };
}

/** Writes the config file (mode 0600: server env may hold secrets) and returns its path. */
export async function writeCopilotMcpConfig(options: { files: WorkDirectoryFiles; servers: readonly McpServer[] }): Promise<string> {
  const { path } = await options.files.writeIfChanged(COPILOT_MCP_CONFIG_PATH, `${JSON.stringify(toCopilotMcpJson(options.servers), null, 2)}\n`, 0o600);
  return path;
}

/** `--additional-mcp-config @<file>`: a file, so no server secret sits on the command line. */
export function copilotMcpArgs(mcp: McpArtefacts | undefined): string[] {
  return mcp?.kind === 'copilot-config-file' ? ['--additional-mcp-config', `@${mcp.path}`] : [];
}
