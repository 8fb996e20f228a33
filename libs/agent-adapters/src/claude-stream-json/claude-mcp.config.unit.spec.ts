import { SAMPLE_MCP_SERVERS } from '../mcp/mcp-servers.spec-helper';
import { toClaudeMcpJson } from './claude-mcp.config';

describe('Claude MCP config', () => {
  it('mcpServers with typed entries', () => {
    expect(toClaudeMcpJson(SAMPLE_MCP_SERVERS)).toEqual({
      mcpServers: {
        docs: { type: 'http', url: 'https://docs.example.com/mcp', headers: { Authorization: 'Bearer abc' } },
        events: { type: 'sse', url: 'https://events.example.com/sse', headers: {} },
        github: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_"quoted"\\x' } },
      },
    });
  });
});
