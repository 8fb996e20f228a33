import { asJsonObject, type JsonObject, type McpServer } from '../mcp/mcp-server.types';

export const OPENCODE_CONFIG_CONTENT_VARIABLE = 'OPENCODE_CONFIG_CONTENT';

/** OpenCode config (`mcp` key) for the `OPENCODE_CONFIG_CONTENT` variable. */
export function toOpenCodeConfigContent(servers: readonly McpServer[]): string {
  const mcp: JsonObject = {};
  for (const server of servers) {
    mcp[server.name] =
      server.kind === 'stdio'
        ? { type: 'local', command: [server.command, ...server.args], environment: asJsonObject(server.env), enabled: true }
        : { type: 'remote', url: server.url, headers: asJsonObject(server.headers), enabled: true };
  }
  return JSON.stringify({ mcp });
}
