import { mcpDeliveryWarning } from './mcp-delivery.warning';

describe('mcpDeliveryWarning', () => {
  it('names every server a CLI without MCP does not get', () => {
    expect(mcpDeliveryWarning({ kind: 'unsupported', undeliveredServerNames: ['github', 'docs'] })).toBe('MCP servers not delivered: this CLI takes no MCP servers from Switchyard: github, docs');
  });

  it('names the SSE servers Codex cannot take, and says nothing when all go', () => {
    expect(mcpDeliveryWarning({ kind: 'codex-thread-config', mcpServers: {}, serverNames: ['github'], undeliveredServerNames: ['events'] })).toBe(
      'MCP servers not delivered: Codex speaks stdio and streamable HTTP only, not SSE: events',
    );
    expect(mcpDeliveryWarning({ kind: 'codex-thread-config', mcpServers: {}, serverNames: ['github'], undeliveredServerNames: [] })).toBeUndefined();
  });

  it('says nothing for delivered forms and for no servers', () => {
    expect(mcpDeliveryWarning({ kind: 'none' })).toBeUndefined();
    expect(mcpDeliveryWarning({ kind: 'claude-config-file', path: '/w/.switchyard/mcp/claude-mcp.json', serverNames: [] })).toBeUndefined();
  });
});
