import { SAMPLE_MCP_SERVERS } from '../mcp/mcp-servers.spec-helper';
import { toAcpMcpServers } from './acp-mcp.servers';
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
