import { SAMPLE_MCP_SERVERS } from '../mcp/mcp-servers.spec-helper';
import { codexMcpThreadConfig, toCodexMcpServers } from './codex-mcp.config';

describe('Codex MCP servers for the thread config', () => {
  it('stdio with command, args and env; http with url and http_headers; SSE reported as undelivered', () => {
    expect(toCodexMcpServers(SAMPLE_MCP_SERVERS)).toEqual({
      mcpServers: {
        docs: { url: 'https://docs.example.com/mcp', http_headers: { Authorization: 'Bearer abc' } },
        github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_"quoted"\\x' } },
      },
      undeliveredServerNames: ['events'],
    });
  });

  it('leaves out empty env and headers, and has nothing for no servers', () => {
    expect(toCodexMcpServers([{ kind: 'stdio', name: 'notes', command: 'node', args: ['server.js'], env: {} }]).mcpServers).toEqual({ notes: { command: 'node', args: ['server.js'] } });
    expect(toCodexMcpServers([])).toEqual({ mcpServers: {}, undeliveredServerNames: [] });
  });

  it('overrides the thread config only when there are servers', () => {
    const notes = { notes: { command: 'node', args: ['server.js'] } };
    expect(codexMcpThreadConfig({ kind: 'codex-thread-config', mcpServers: notes, serverNames: ['notes'], undeliveredServerNames: [] })).toEqual({ config: { mcp_servers: notes } });
    expect(codexMcpThreadConfig({ kind: 'codex-thread-config', mcpServers: {}, serverNames: [], undeliveredServerNames: [] })).toEqual({});
    expect(codexMcpThreadConfig(undefined)).toEqual({});
  });
});
