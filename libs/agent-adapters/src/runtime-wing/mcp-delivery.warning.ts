import type { McpArtefacts } from '../mcp/mcp-artefacts.types';

/**
 * What the daemon says in the timeline about servers the CLI cannot be given (a CLI without MCP,
 * a transport it does not speak); undefined when every server goes. ACP agents' transport limits
 * are known only from their `initialize` reply, so the ACP backend says those itself.
 */
export function mcpDeliveryWarning(mcp: McpArtefacts): string | undefined {
  switch (mcp.kind) {
    case 'unsupported':
      return `MCP servers not delivered: this CLI takes no MCP servers from Switchyard: ${mcp.undeliveredServerNames.join(', ')}`;
    case 'codex-thread-config':
      return mcp.undeliveredServerNames.length > 0 ? `MCP servers not delivered: Codex speaks stdio and streamable HTTP only, not SSE: ${mcp.undeliveredServerNames.join(', ')}` : undefined;
    default:
      return undefined;
  }
}
