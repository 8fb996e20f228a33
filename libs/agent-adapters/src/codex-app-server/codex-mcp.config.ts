import type { McpArtefacts } from '../mcp/mcp-artefacts.types';
import { asJsonObject, type JsonObject, type McpServer } from '../mcp/mcp-server.types';

/**
 * The `mcp_servers` table of Codex's config as JSON, for the `config` override of `thread/start`
 * and `thread/resume`: per thread, so concurrent tasks of one runtime never share (or race on) a
 * `CODEX_HOME/config.toml`, and no server secret sits on a command line. Codex speaks stdio and
 * streamable HTTP only, so SSE servers are returned as undelivered.
 */
export function toCodexMcpServers(servers: readonly McpServer[]): { mcpServers: JsonObject; undeliveredServerNames: string[] } {
  const mcpServers: JsonObject = {};
  const undeliveredServerNames: string[] = [];
  for (const server of servers) {
    if (server.kind === 'sse') {
      undeliveredServerNames.push(server.name);
      continue;
    }
    mcpServers[server.name] =
      server.kind === 'stdio'
        ? { command: server.command, args: server.args, ...(Object.keys(server.env).length > 0 ? { env: asJsonObject(server.env) } : {}) }
        : { url: server.url, ...(Object.keys(server.headers).length > 0 ? { http_headers: asJsonObject(server.headers) } : {}) };
  }
  return { mcpServers, undeliveredServerNames };
}

/**
 * The `config` override for `thread/start` / `thread/resume`, when there are servers. Codex merges
 * it into the `mcp_servers` table of its config (checked on 0.171: a server of the runtime's
 * `config.toml` stays), which is fine since Switchyard's `CODEX_HOME/config.toml` lists none.
 */
export function codexMcpThreadConfig(mcp: McpArtefacts | undefined): { config?: { mcp_servers: JsonObject } } {
  if (mcp?.kind !== 'codex-thread-config' || Object.keys(mcp.mcpServers).length === 0) return {};
  return { config: { mcp_servers: mcp.mcpServers } };
}
