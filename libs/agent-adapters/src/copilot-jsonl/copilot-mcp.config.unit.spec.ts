import { SAMPLE_MCP_SERVERS } from '../mcp/mcp-servers.spec-helper';
import { copilotMcpArgs, toCopilotMcpJson } from './copilot-mcp.config';

describe('Copilot MCP config', () => {
  it('stdio with command, args and env; http and sse with url and headers; every tool of each', () => {
    expect(toCopilotMcpJson(SAMPLE_MCP_SERVERS)).toEqual({
      mcpServers: {
        docs: { type: 'http', url: 'https://docs.example.com/mcp', headers: { Authorization: 'Bearer abc' }, tools: ['*'] },
        events: { type: 'sse', url: 'https://events.example.com/sse', headers: {}, tools: ['*'] },
        github: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_"quoted"\\x' }, tools: ['*'] },
      },
    });
  });

  it('passes the file with an @, and nothing for other artefacts', () => {
    expect(copilotMcpArgs({ kind: 'copilot-config-file', path: '/work/.switchyard/mcp/copilot-mcp.json', serverNames: ['github'] })).toEqual(['--additional-mcp-config', '@/work/.switchyard/mcp/copilot-mcp.json']);
    expect(copilotMcpArgs({ kind: 'none' })).toEqual([]);
    expect(copilotMcpArgs(undefined)).toEqual([]);
  });
});
