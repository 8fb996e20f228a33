import type { JsonObject, McpServer } from '../mcp/mcp-server.types';

const nameValueList = (entries: Record<string, string>): JsonObject[] => Object.entries(entries).map(([name, value]) => ({ name, value }));

/** ACP `session/new` `mcpServers`: stdio entries carry no `type`; http/sse do. Filter by the agent's `mcpCapabilities` before sending. */
export function toAcpMcpServers(servers: readonly McpServer[]): JsonObject[] {
  return servers.map((server): JsonObject =>
    server.kind === 'stdio'
      ? { name: server.name, command: server.command, args: server.args, env: nameValueList(server.env) }
      : { type: server.kind, name: server.name, url: server.url, headers: nameValueList(server.headers) },
  );
}
