import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { plainWorkDirectoryFiles } from '../mcp/mcp-servers.spec-helper';
import type { McpServer } from '../mcp/mcp-server.types';
import { mergeGeminiSettings } from './gemini-mcp.settings';

const servers: McpServer[] = [{ kind: 'stdio', name: 'github', command: 'npx', args: ['server-github'], env: {} }];

describe('Gemini settings file (MCP servers)', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'switchyard-gemini-mcp-'));
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));
  const merge = () => mergeGeminiSettings({ files: plainWorkDirectoryFiles(directory), servers });

  it('merges mcpServers into an existing settings file without dropping user keys or servers', async () => {
    const settingsPath = path.join(directory, '.gemini', 'settings.json');
    await mkdir(path.dirname(settingsPath));
    const user = { theme: 'Dracula', general: { vimMode: true }, mcpServers: { mine: { command: 'my-server' }, github: { command: 'stale' } } };
    await writeFile(settingsPath, JSON.stringify(user));

    const first = await merge();
    const second = await merge();

    expect([first.changed, second.changed]).toEqual([true, false]);
    expect(JSON.parse(await readFile(settingsPath, 'utf8'))).toEqual({
      theme: 'Dracula',
      general: { vimMode: true },
      mcpServers: { mine: { command: 'my-server' }, github: { command: 'npx', args: ['server-github'], env: {} } },
    });
  });

  it('creates the settings file when missing', async () => {
    await merge();
    expect(JSON.parse(await readFile(path.join(directory, '.gemini/settings.json'), 'utf8'))).toEqual({
      mcpServers: { github: { command: 'npx', args: ['server-github'], env: {} } },
    });
  });

  it.each([
    ['JSON with comments', '{ // mine\n "theme": "x" }'],
    ['a JSON array', '[1, 2]'],
    ['a non-object mcpServers', '{ "mcpServers": [] }'],
  ])('leaves %s untouched and reports unreadable_settings', async (_label, content) => {
    const settingsPath = path.join(directory, '.gemini', 'settings.json');
    await mkdir(path.dirname(settingsPath));
    await writeFile(settingsPath, content);
    await expect(merge()).rejects.toMatchObject({ code: 'unreadable_settings', isRetryable: false });
    expect(await readFile(settingsPath, 'utf8')).toBe(content);
  });
});
