import { SAMPLE_MCP_SERVERS } from '../mcp/mcp-servers.spec-helper';
import { toOpenCodeConfigContent } from './opencode-mcp.config';

describe('OpenCode MCP config content', () => {
  it('local command arrays and remote urls under mcp', () => {
    expect(JSON.parse(toOpenCodeConfigContent(SAMPLE_MCP_SERVERS))).toEqual({
      mcp: {
        docs: { type: 'remote', url: 'https://docs.example.com/mcp', headers: { Authorization: 'Bearer abc' }, enabled: true },
        events: { type: 'remote', url: 'https://events.example.com/sse', headers: {}, enabled: true },
        github: { type: 'local', command: ['npx', '-y', '@modelcontextprotocol/server-github'], environment: { GITHUB_TOKEN: 'ghp_"quoted"\\x' }, enabled: true },
      },
    });
  });
});
