import type { McpCapabilities, McpServer as AcpMcpServer } from '@agentclientprotocol/sdk';
import type { McpArtefacts } from '../mcp/mcp-artefacts.types';
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

/** What an ACP run sends in `session/new` / `session/load`, and what it had to leave out. */
export interface AcpSessionMcpServers {
  readonly mcpServers: AcpMcpServer[];
  /** Servers of a transport the agent did not advertise (`mcpCapabilities`), by name and transport. */
  readonly leftOut: readonly { readonly name: string; readonly transport: 'http' | 'sse' }[];
}

/**
 * The servers for the session, as the agent's `initialize` reply allows: every agent must take
 * stdio (ACP v1); `http` and `sse` only when its `mcpCapabilities` say so, the rest left out for
 * the caller to say in the timeline. Not an `acp-session` artefact (none given, or another
 * family's): no servers.
 */
export function acpSessionMcpServers(mcp: McpArtefacts | undefined, capabilities: McpCapabilities | undefined): AcpSessionMcpServers {
  if (mcp?.kind !== 'acp-session') return { mcpServers: [], leftOut: [] };
  const mcpServers: AcpMcpServer[] = [];
  const leftOut: { name: string; transport: 'http' | 'sse' }[] = [];
  for (const server of mcp.mcpServers) {
    const transport = server['type'];
    if (transport === 'http' || transport === 'sse') {
      if (capabilities?.[transport] !== true) {
        leftOut.push({ name: typeof server['name'] === 'string' ? server['name'] : '(unnamed)', transport });
        continue;
      }
    }
    // The entries are `toAcpMcpServers` output, which has the SDK's shape.
    mcpServers.push(server as unknown as AcpMcpServer);
  }
  return { mcpServers, leftOut };
}
