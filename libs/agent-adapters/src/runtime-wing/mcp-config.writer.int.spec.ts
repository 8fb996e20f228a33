import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLAUDE_MCP_CONFIG_PATH } from '../claude-stream-json/claude-mcp.config';
import { plainWorkDirectoryFiles } from '../mcp/mcp-servers.spec-helper';
import type { McpServer } from '../mcp/mcp-server.types';
import { writeMcpConfig } from './mcp-config.writer';

const servers: McpServer[] = [{ kind: 'stdio', name: 'github', command: 'npx', args: ['server-github'], env: {} }];

describe('MCP config per CLI', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'switchyard-mcp-config-'));
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));
  const deliver = (target: Parameters<typeof writeMcpConfig>[0]['target'], given: McpServer[] = servers) =>
    writeMcpConfig({ target, servers: given, files: plainWorkDirectoryFiles(directory) });

  it('Claude: writes its own private config file, never the user .mcp.json', async () => {
    await writeFile(path.join(directory, '.mcp.json'), '{"mcpServers":{"user":{}}}');
    const artefacts = await deliver({ protocolFamily: 'claude-stream-json' });

    const configPath = path.join(directory, CLAUDE_MCP_CONFIG_PATH);
    expect(artefacts).toEqual({ kind: 'claude-config-file', path: configPath, serverNames: ['github'] });
    expect(JSON.parse(await readFile(configPath, 'utf8'))).toEqual({
      mcpServers: { github: { type: 'stdio', command: 'npx', args: ['server-github'], env: {} } },
    });
    expect((await stat(configPath)).mode & 0o777).toBe(0o600);
    expect(await readFile(path.join(directory, '.mcp.json'), 'utf8')).toBe('{"mcpServers":{"user":{}}}');
  });

  it('delivers per CLI: Qwen config file, Codex thread config, ACP array, OpenCode env content, Copilot file, nothing for Pi', async () => {
    await expect(deliver({ protocolFamily: 'claude-stream-json', identity: 'qwen-code' })).resolves.toEqual({
      kind: 'qwen-config-file',
      path: path.join(directory, '.switchyard/mcp/qwen-mcp.json'),
      serverNames: ['github'],
    });
    expect(JSON.parse(await readFile(path.join(directory, '.switchyard/mcp/qwen-mcp.json'), 'utf8'))).toEqual({ mcpServers: { github: { command: 'npx', args: ['server-github'], env: {} } } });
    expect((await stat(path.join(directory, '.switchyard/mcp/qwen-mcp.json'))).mode & 0o777).toBe(0o600);
    await expect(deliver({ protocolFamily: 'codex-app-server' })).resolves.toMatchObject({ kind: 'codex-thread-config', mcpServers: { github: { command: 'npx', args: ['server-github'] } }, serverNames: ['github'] });
    await expect(deliver({ protocolFamily: 'acp', identity: 'gemini-cli' })).resolves.toMatchObject({ kind: 'acp-session', mcpServers: [{ name: 'github' }] });
    await expect(deliver({ protocolFamily: 'opencode-ndjson' })).resolves.toMatchObject({ kind: 'opencode-config-content', environmentVariable: 'OPENCODE_CONFIG_CONTENT' });
    await expect(deliver({ protocolFamily: 'copilot-jsonl', identity: 'copilot' })).resolves.toEqual({
      kind: 'copilot-config-file',
      path: path.join(directory, '.switchyard/mcp/copilot-mcp.json'),
      serverNames: ['github'],
    });
    await expect(deliver({ protocolFamily: 'copilot-jsonl' }, [])).resolves.toEqual({ kind: 'none' });
    // Pi has no MCP client (its README: "No MCP"): said, never pretended.
    await expect(deliver({ protocolFamily: 'pi-json', identity: 'pi' })).resolves.toEqual({ kind: 'unsupported', undeliveredServerNames: ['github'] });
    await expect(deliver({ protocolFamily: 'pi-json' }, [])).resolves.toEqual({ kind: 'none' });
  });

  it('gives a profile named like a built-in its family files, not the built-in\'s', async () => {
    // `qwen-code` is not of the ACP family: a target naming it there gets the ACP default.
    await expect(deliver({ protocolFamily: 'acp', identity: 'qwen-code' })).resolves.toMatchObject({ kind: 'acp-session' });
  });
});
