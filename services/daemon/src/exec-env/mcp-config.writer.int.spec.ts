import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTemporaryDirectory } from './exec-env.spec-helper';
import { parseNeutralMcpConfig } from './mcp-config.schema';
import { CLAUDE_MCP_CONFIG_PATH, deliverMcpConfig, mergeGeminiSettings } from './mcp-config.writer';

const servers = parseNeutralMcpConfig({ servers: { github: { command: 'npx', args: ['server-github'] } } });

describe('MCP config files', () => {
  let temporary: { path: string; remove: () => Promise<void> };
  beforeEach(async () => {
    temporary = await createTemporaryDirectory();
  });
  afterEach(() => temporary.remove());

  it('Gemini: merges mcpServers into an existing settings file without dropping user keys or servers', async () => {
    const settingsPath = path.join(temporary.path, '.gemini', 'settings.json');
    await mkdir(path.dirname(settingsPath));
    const user = { theme: 'Dracula', general: { vimMode: true }, mcpServers: { mine: { command: 'my-server' }, github: { command: 'stale' } } };
    await writeFile(settingsPath, JSON.stringify(user));

    const first = await mergeGeminiSettings({ workDirectory: temporary.path, servers });
    const second = await mergeGeminiSettings({ workDirectory: temporary.path, servers });

    expect([first.changed, second.changed]).toEqual([true, false]);
    expect(JSON.parse(await readFile(settingsPath, 'utf8'))).toEqual({
      theme: 'Dracula',
      general: { vimMode: true },
      mcpServers: { mine: { command: 'my-server' }, github: { command: 'npx', args: ['server-github'], env: {} } },
    });
  });

  it('Gemini: creates the settings file when missing', async () => {
    await mergeGeminiSettings({ workDirectory: temporary.path, servers });
    expect(JSON.parse(await readFile(path.join(temporary.path, '.gemini/settings.json'), 'utf8'))).toEqual({
      mcpServers: { github: { command: 'npx', args: ['server-github'], env: {} } },
    });
  });

  it.each([
    ['JSON with comments', '{ // mine\n "theme": "x" }'],
    ['a JSON array', '[1, 2]'],
    ['a non-object mcpServers', '{ "mcpServers": [] }'],
  ])('Gemini: leaves %s untouched and reports unreadable_settings', async (_label, content) => {
    const settingsPath = path.join(temporary.path, '.gemini', 'settings.json');
    await mkdir(path.dirname(settingsPath));
    await writeFile(settingsPath, content);
    await expect(mergeGeminiSettings({ workDirectory: temporary.path, servers })).rejects.toMatchObject({ code: 'unreadable_settings' });
    expect(await readFile(settingsPath, 'utf8')).toBe(content);
  });

  it('Claude: writes its own private config file, never the user .mcp.json', async () => {
    await writeFile(path.join(temporary.path, '.mcp.json'), '{"mcpServers":{"user":{}}}');
    const artefacts = await deliverMcpConfig({ workDirectory: temporary.path, target: { protocolFamily: 'claude-stream-json' }, servers });

    const configPath = path.join(temporary.path, CLAUDE_MCP_CONFIG_PATH);
    expect(artefacts).toEqual({ kind: 'claude-config-file', path: configPath, serverNames: ['github'] });
    expect(JSON.parse(await readFile(configPath, 'utf8'))).toEqual({
      mcpServers: { github: { type: 'stdio', command: 'npx', args: ['server-github'], env: {} } },
    });
    expect((await stat(configPath)).mode & 0o777).toBe(0o600);
    expect(await readFile(path.join(temporary.path, '.mcp.json'), 'utf8')).toBe('{"mcpServers":{"user":{}}}');
  });

  it('delivers per CLI: Qwen settings file, Codex TOML text, ACP array, OpenCode env content, nothing elsewhere', async () => {
    const deliver = (target: Parameters<typeof deliverMcpConfig>[0]['target']) => deliverMcpConfig({ workDirectory: temporary.path, target, servers });

    await expect(deliver({ protocolFamily: 'claude-stream-json', identity: 'qwen-code' })).resolves.toEqual({
      kind: 'gemini-settings-file',
      path: path.join(temporary.path, '.qwen/settings.json'),
      serverNames: ['github'],
    });
    await expect(deliver({ protocolFamily: 'codex-app-server' })).resolves.toMatchObject({ kind: 'codex-config-toml', text: expect.stringContaining('[mcp_servers.github]') });
    await expect(deliver({ protocolFamily: 'acp', identity: 'gemini-cli' })).resolves.toMatchObject({ kind: 'acp-session', mcpServers: [{ name: 'github' }] });
    await expect(deliver({ protocolFamily: 'opencode-ndjson' })).resolves.toMatchObject({ kind: 'opencode-config-content', environmentVariable: 'OPENCODE_CONFIG_CONTENT' });
    await expect(deliver({ protocolFamily: 'copilot-jsonl' })).resolves.toEqual({ kind: 'unsupported', undeliveredServerNames: ['github'] });
    await expect(deliverMcpConfig({ workDirectory: temporary.path, target: { protocolFamily: 'copilot-jsonl' }, servers: [] })).resolves.toEqual({ kind: 'none' });
  });
});
