import { SAMPLE_MCP_SERVERS } from '../mcp/mcp-servers.spec-helper';
import { toCodexMcpToml } from './codex-mcp.toml';

describe('Codex MCP TOML', () => {
  it('[mcp_servers.<name>] sections with escaped strings; SSE reported as undelivered', () => {
    const { text, undeliveredServerNames } = toCodexMcpToml(SAMPLE_MCP_SERVERS);
    expect(undeliveredServerNames).toEqual(['events']);
    expect(text).toBe(
      [
        '[mcp_servers.docs]',
        'url = "https://docs.example.com/mcp"',
        'http_headers = { Authorization = "Bearer abc" }',
        '',
        '[mcp_servers.github]',
        'command = "npx"',
        'args = ["-y", "@modelcontextprotocol/server-github"]',
        'env = { GITHUB_TOKEN = "ghp_\\"quoted\\"\\\\x" }',
        '',
      ].join('\n'),
    );
    expect(toCodexMcpToml([]).text).toBe('');
  });
});
