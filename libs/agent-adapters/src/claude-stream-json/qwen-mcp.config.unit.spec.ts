import { qwenMcpArgs } from './qwen-mcp.config';

describe('Qwen Code MCP flags', () => {
  it('passes the file and allows exactly the agent\'s servers', () => {
    expect(qwenMcpArgs({ kind: 'qwen-config-file', path: '/w/.switchyard/mcp/qwen-mcp.json', serverNames: ['docs', 'notes'] })).toEqual([
      '--mcp-config',
      '/w/.switchyard/mcp/qwen-mcp.json',
      '--allowed-mcp-server-names',
      'docs',
      'notes',
    ]);
  });

  it('allows none when the agent has none, and passes nothing for other artefacts', () => {
    expect(qwenMcpArgs({ kind: 'qwen-config-file', path: '/w/q.json', serverNames: [] })).toEqual(['--mcp-config', '/w/q.json', '--allowed-mcp-server-names', '']);
    expect(qwenMcpArgs({ kind: 'none' })).toEqual([]);
    expect(qwenMcpArgs(undefined)).toEqual([]);
  });
});
