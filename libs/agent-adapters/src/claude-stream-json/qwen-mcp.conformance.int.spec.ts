import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BackendExecuteOptions } from '../backend/backend.types';
import { collectRun } from '../backend/session-drain.spec-helper';
import { useMockModelWorkspace } from '../conformance/mock-model-workspace.spec-helper';
import { expectNoteWrittenThroughMcp, noteWriterServers, NOTE_WRITER_SERVER, writeNotePrompt } from '../conformance/mcp-tool.spec-helper';
import { realCli } from '../conformance/real-cli.spec-helper';
import { plainWorkDirectoryFiles } from '../mcp/mcp-servers.spec-helper';
import { writeMcpConfig } from '../runtime-wing/mcp-config.writer';
import { createQwenCodeBackend } from './qwen-code.backend';
import { qwenModelEnvironment, writeQwenHome } from './qwen-home.writer';

/** Real Qwen Code takes the agent's MCP servers from `--mcp-config <file>`, only those allowed. */
describe('MCP on the real Qwen Code CLI', () => {
  const workspace = useMockModelWorkspace('qwen-mcp');
  const backend = createQwenCodeBackend();

  async function runOptions(servers: ReturnType<typeof noteWriterServers>): Promise<BackendExecuteOptions> {
    const qwenHome = await writeQwenHome({ home: workspace.home });
    const mcp = await writeMcpConfig({ target: { protocolFamily: 'claude-stream-json', identity: 'qwen-code' }, servers, files: plainWorkDirectoryFiles(workspace.workDirectory) });
    expect(mcp).toMatchObject({ kind: 'qwen-config-file', path: path.join(workspace.workDirectory, '.switchyard/mcp/qwen-mcp.json') });
    return {
      cwd: workspace.workDirectory,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: workspace.home,
        ...qwenHome.env,
        ...qwenModelEnvironment({ baseUrl: `${workspace.server.url}/v1`, apiKey: 'sk-mock-not-a-secret', model: 'mock-model' }),
      },
      executable: realCli('qwen'),
      mcp,
      timeouts: { idleMs: 90_000, totalMs: 180_000, exitGraceMs: 30_000 },
    };
  }

  it('the mock model calls the MCP tool through Qwen Code: the server writes the file, the timeline shows the use and its result', async () => {
    const target = path.join(workspace.workDirectory, 'note-from-qwen.txt');

    const { messages, result } = await collectRun(await backend.execute(writeNotePrompt(target, 'written by the MCP server for Qwen'), await runOptions(noteWriterServers())));

    expect(result).toMatchObject({ status: 'completed', toolRan: true });
    // Qwen Code defers MCP tools behind its tool_search: the mock model loads the tool first, as a model would.
    expect(messages).toContainEqual(expect.objectContaining({ type: 'tool-use', tool: 'tool_search', input: { query: `select:mcp__${NOTE_WRITER_SERVER}__write_note` } }));
    const toolUse = expectNoteWrittenThroughMcp({ messages, target, text: 'written by the MCP server for Qwen' });
    expect(toolUse.tool).toBe(`mcp__${NOTE_WRITER_SERVER}__write_note`);
  });

  it('a server of the repository\'s .qwen/settings.json is not allowed: the run gets only the agent\'s (here none)', async () => {
    const { command, args } = noteWriterServers()[0] as { command: string; args: string[] };
    await mkdir(path.join(workspace.workDirectory, '.qwen'), { recursive: true });
    await writeFile(path.join(workspace.workDirectory, '.qwen', 'settings.json'), JSON.stringify({ mcpServers: { intruder: { command, args } } }));
    const requestsBefore = workspace.server.requests().length;

    const { result } = await collectRun(await backend.execute('hello [[scenario:text]]', await runOptions([])));

    expect(result.status).toBe('completed');
    const requests = workspace.server.requests().slice(requestsBefore);
    expect(requests.length).toBeGreaterThan(0);
    // Deferred MCP tools are listed by name in the system prompt, offered ones in `tools`: neither has the intruder.
    expect(requests.filter((request) => JSON.stringify(request.body).includes('mcp__intruder'))).toEqual([]);
  });
});
