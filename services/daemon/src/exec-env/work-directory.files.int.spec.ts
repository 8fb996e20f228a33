import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CLAUDE_MCP_CONFIG_PATH, writeMcpConfig } from '@switchyard/agent-adapters/wing';
import { createTemporaryDirectory } from './exec-env.spec-helper';
import { parseNeutralMcpConfig } from './mcp-config.schema';
import { workDirectoryFiles } from './safe-path.guard';

const servers = parseNeutralMcpConfig({ servers: { github: { command: 'npx', args: ['server-github'] } } });

describe('MCP config files through the work directory guard', () => {
  let temporary: { path: string; remove: () => Promise<void> };
  beforeEach(async () => {
    temporary = await createTemporaryDirectory();
  });
  afterEach(() => temporary.remove());

  it('Claude: writes its own private config file (0600), never the user .mcp.json', async () => {
    await writeFile(path.join(temporary.path, '.mcp.json'), '{"mcpServers":{"user":{}}}');
    const artefacts = await writeMcpConfig({ target: { protocolFamily: 'claude-stream-json' }, servers, files: workDirectoryFiles(temporary.path) });

    const configPath = path.join(temporary.path, CLAUDE_MCP_CONFIG_PATH);
    expect(artefacts).toEqual({ kind: 'claude-config-file', path: configPath, serverNames: ['github'] });
    expect((await stat(configPath)).mode & 0o777).toBe(0o600);
    expect(await readFile(path.join(temporary.path, '.mcp.json'), 'utf8')).toBe('{"mcpServers":{"user":{}}}');
  });

  it('Qwen Code: refuses to follow a symlinked .switchyard folder out of the work directory, and never writes the repository\'s .qwen/settings.json', async () => {
    const outside = path.join(temporary.path, 'outside');
    const work = path.join(temporary.path, 'work');
    await mkdir(outside);
    await mkdir(work);
    await symlink(outside, path.join(work, '.switchyard'));
    const target = { protocolFamily: 'claude-stream-json', identity: 'qwen-code' } as const;
    await expect(writeMcpConfig({ target, servers, files: workDirectoryFiles(work) })).rejects.toMatchObject({ code: 'unsafe_path' });
    await expect(readFile(path.join(outside, 'mcp', 'qwen-mcp.json'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(stat(path.join(work, '.qwen'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
