import { ExecEnvError } from './exec-env.error';
import { parseNeutralMcpConfig } from './mcp-config.schema';
import { toAcpMcpServers, toClaudeMcpJson, toCodexMcpToml, toGeminiMcpServers, toOpenCodeConfigContent } from './mcp-config.writer';

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

describe('native MCP forms', () => {
  it('Claude: mcpServers with typed entries', () => {
    expect(toClaudeMcpJson(servers)).toEqual({
      mcpServers: {
        docs: { type: 'http', url: 'https://docs.example.com/mcp', headers: { Authorization: 'Bearer abc' } },
        events: { type: 'sse', url: 'https://events.example.com/sse', headers: {} },
        github: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_"quoted"\\x' } },
      },
    });
  });

  it('Gemini: httpUrl for streamable HTTP, url for SSE', () => {
    expect(toGeminiMcpServers(servers)).toEqual({
      docs: { httpUrl: 'https://docs.example.com/mcp', headers: { Authorization: 'Bearer abc' } },
      events: { url: 'https://events.example.com/sse', headers: {} },
      github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_"quoted"\\x' } },
    });
  });

  it('ACP session/new: an array with name/value lists', () => {
    expect(toAcpMcpServers(servers)).toEqual([
      { type: 'http', name: 'docs', url: 'https://docs.example.com/mcp', headers: [{ name: 'Authorization', value: 'Bearer abc' }] },
      { type: 'sse', name: 'events', url: 'https://events.example.com/sse', headers: [] },
      { name: 'github', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: [{ name: 'GITHUB_TOKEN', value: 'ghp_"quoted"\\x' }] },
    ]);
  });

  it('Codex: [mcp_servers.<name>] sections with escaped strings; SSE reported as undelivered', () => {
    const { text, undeliveredServerNames } = toCodexMcpToml(servers);
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

  it('OpenCode: local command arrays and remote urls under mcp', () => {
    expect(JSON.parse(toOpenCodeConfigContent(servers))).toEqual({
      mcp: {
        docs: { type: 'remote', url: 'https://docs.example.com/mcp', headers: { Authorization: 'Bearer abc' }, enabled: true },
        events: { type: 'remote', url: 'https://events.example.com/sse', headers: {}, enabled: true },
        github: { type: 'local', command: ['npx', '-y', '@modelcontextprotocol/server-github'], environment: { GITHUB_TOKEN: 'ghp_"quoted"\\x' }, enabled: true },
      },
    });
  });
});
