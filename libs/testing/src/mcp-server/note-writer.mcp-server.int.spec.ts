import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { NOTE_WRITER_TOOL, noteWriterMcpServer } from './note-writer.mcp-server';

/** The server as a CLI starts it: its own process on stdio, spoken to by the SDK's client. */
describe('the note-writer MCP server', () => {
  let directory: string;
  let client: Client;

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'switchyard-note-writer-'));
    const { command, args } = noteWriterMcpServer();
    client = new Client({ name: 'switchyard-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command, args: [...args], stderr: 'pipe' }));
  });

  afterAll(async () => {
    await client.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('offers write_note with a path and a text', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([NOTE_WRITER_TOOL]);
    expect(tools[0]?.inputSchema).toMatchObject({ type: 'object', required: ['path', 'text'] });
  });

  it('writes the note to the file and says where', async () => {
    const target = path.join(directory, 'nested', 'note.txt');
    const result = await client.callTool({ name: NOTE_WRITER_TOOL, arguments: { path: target, text: 'hello from mcp' } });
    expect(result).toMatchObject({ content: [{ type: 'text', text: `note written to ${target}` }] });
    expect(result.isError).not.toBe(true);
    await expect(readFile(target, 'utf8')).resolves.toBe('hello from mcp');
  });

  it('refuses a relative path with a tool error, writing nothing', async () => {
    const result = await client.callTool({ name: NOTE_WRITER_TOOL, arguments: { path: 'relative.txt', text: 'x' } });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'write_note needs an absolute path, got relative.txt' }] });
  });
});
