import { SAMPLE_MCP_SERVERS } from '../mcp/mcp-servers.spec-helper';
import { acpSessionMcpServers, toAcpMcpServers } from './acp-mcp.servers';
import { toGeminiMcpServers } from './gemini-mcp.settings';

describe('ACP and Gemini MCP forms', () => {
  it('Gemini: httpUrl for streamable HTTP, url for SSE', () => {
    expect(toGeminiMcpServers(SAMPLE_MCP_SERVERS)).toEqual({
      docs: { httpUrl: 'https://docs.example.com/mcp', headers: { Authorization: 'Bearer abc' } },
      events: { url: 'https://events.example.com/sse', headers: {} },
      github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_"quoted"\\x' } },
    });
  });

  it('ACP session/new: an array with name/value lists', () => {
    expect(toAcpMcpServers(SAMPLE_MCP_SERVERS)).toEqual([
      { type: 'http', name: 'docs', url: 'https://docs.example.com/mcp', headers: [{ name: 'Authorization', value: 'Bearer abc' }] },
      { type: 'sse', name: 'events', url: 'https://events.example.com/sse', headers: [] },
      { name: 'github', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: [{ name: 'GITHUB_TOKEN', value: 'ghp_"quoted"\\x' }] },
    ]);
  });
});

describe('ACP session servers per the agent capabilities', () => {
  const artefacts = { kind: 'acp-session' as const, mcpServers: toAcpMcpServers(SAMPLE_MCP_SERVERS), serverNames: ['docs', 'events', 'github'] };

  it('given an agent that advertises no MCP capabilities, when the session opens, then it gets stdio only and http/sse are left out by name', () => {
    const { mcpServers, leftOut } = acpSessionMcpServers(artefacts, undefined);
    expect(mcpServers.map((server) => server.name)).toEqual(['github']);
    expect(leftOut).toEqual([
      { name: 'docs', transport: 'http' },
      { name: 'events', transport: 'sse' },
    ]);
  });

  it('given an agent that advertises http only, then http goes too and sse is left out', () => {
    const { mcpServers, leftOut } = acpSessionMcpServers(artefacts, { http: true, sse: false });
    expect(mcpServers.map((server) => server.name)).toEqual(['docs', 'github']);
    expect(leftOut).toEqual([{ name: 'events', transport: 'sse' }]);
  });

  it('given an agent that advertises both, then every server goes', () => {
    expect(acpSessionMcpServers(artefacts, { http: true, sse: true })).toEqual({ mcpServers: artefacts.mcpServers, leftOut: [] });
  });

  it('given no artefacts or another family\'s, then the session gets no servers', () => {
    expect(acpSessionMcpServers(undefined, { http: true })).toEqual({ mcpServers: [], leftOut: [] });
    expect(acpSessionMcpServers({ kind: 'none' }, { http: true })).toEqual({ mcpServers: [], leftOut: [] });
  });
});
