import { ExecEnvError } from './exec-env.error';
import { parseNeutralMcpConfig } from './mcp-config.schema';

const NEUTRAL = {
  servers: {
    github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_"quoted"\\x' } },
    docs: { url: 'https://docs.example.com/mcp', headers: { Authorization: 'Bearer abc' } },
    events: { url: 'https://events.example.com/sse', transport: 'sse' },
  },
};
const servers = parseNeutralMcpConfig(NEUTRAL);

describe('parseNeutralMcpConfig', () => {
  it('normalizes and sorts servers by name', () => {
    expect(servers).toEqual([
      { kind: 'http', name: 'docs', url: 'https://docs.example.com/mcp', headers: { Authorization: 'Bearer abc' } },
      { kind: 'sse', name: 'events', url: 'https://events.example.com/sse', headers: {} },
      { kind: 'stdio', name: 'github', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_"quoted"\\x' } },
    ]);
    expect(parseNeutralMcpConfig(null)).toEqual([]);
  });

  it.each([
    ['a server name with a dot', { servers: { 'a.b': { command: 'x' } } }],
    ['a server with both command and url', { servers: { a: { command: 'x', url: 'https://x.dev' } } }],
    ['a server with neither', { servers: { a: { args: [] } } }],
    ['a non-POSIX env key', { servers: { a: { command: 'x', env: { 'BAD-KEY': 'v' } } } }],
    ['a NUL in an argument', { servers: { a: { command: 'x', args: ['a\0b'] } } }],
    ['a file: url', { servers: { a: { url: 'file:///etc/passwd' } } }],
    ['unknown keys', { servers: { a: { command: 'x', shell: true } } }],
    ['no servers object', { mcpServers: {} }],
  ])('rejects %s with invalid_mcp_config', (_label, value) => {
    let thrown: unknown;
    try {
      parseNeutralMcpConfig(value);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ExecEnvError);
    expect(thrown).toMatchObject({ code: 'invalid_mcp_config', isRetryable: false });
  });
});
