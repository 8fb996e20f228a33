import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BackendExecuteOptions } from '../backend/backend.types';
import { collectRun } from '../backend/session-drain.spec-helper';
import { useMockModelWorkspace } from '../conformance/mock-model-workspace.spec-helper';
import { expectNoteWrittenThroughMcp, noteWriterServers, NOTE_WRITER_SERVER, writeNotePrompt } from '../conformance/mcp-tool.spec-helper';
import { realCli } from '../conformance/real-cli.spec-helper';
import { plainWorkDirectoryFiles } from '../mcp/mcp-servers.spec-helper';
import { writeMcpConfig } from '../runtime-wing/mcp-config.writer';
import { createClaudeStreamJsonBackend } from './claude-stream-json.backend';

/** Real Claude Code takes the agent's MCP servers from `--mcp-config <file> --strict-mcp-config`. */
describe('MCP on the real Claude Code CLI', () => {
  const workspace = useMockModelWorkspace('claude-mcp');
  const backend = createClaudeStreamJsonBackend();

  function runOptions(): BackendExecuteOptions {
    return {
      cwd: workspace.workDirectory,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: workspace.home,
        ANTHROPIC_BASE_URL: workspace.server.url,
        ANTHROPIC_API_KEY: 'sk-mock-not-a-secret',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        IS_SANDBOX: '1',
      },
      executable: realCli('claude'),
      timeouts: { idleMs: 60_000, totalMs: 120_000 },
    };
  }

  it('the mock model calls the MCP tool through Claude Code: the server writes the file, the timeline shows the use and its result', async () => {
    const mcp = await writeMcpConfig({ target: { protocolFamily: 'claude-stream-json', identity: 'claude-code' }, servers: noteWriterServers(), files: plainWorkDirectoryFiles(workspace.workDirectory) });
    const target = path.join(workspace.workDirectory, 'note-from-claude.txt');

    const { messages, result } = await collectRun(
      await backend.execute(writeNotePrompt(target, 'written by the MCP server for Claude'), { ...runOptions(), mcp }),
    );

    expect(result).toMatchObject({ status: 'completed', toolRan: true });
    const toolUse = expectNoteWrittenThroughMcp({ messages, target, text: 'written by the MCP server for Claude' });
    expect(toolUse.tool).toBe(`mcp__${NOTE_WRITER_SERVER}__write_note`);
    expect(result.output).toContain(`note written to ${target}`);
  });

  it('an agent without servers gets exactly none: the empty file with --strict-mcp-config keeps a repository .mcp.json out', async () => {
    const { command, args } = noteWriterServers()[0] as { command: string; args: string[] };
    await writeFile(path.join(workspace.workDirectory, '.mcp.json'), JSON.stringify({ mcpServers: { intruder: { type: 'stdio', command, args } } }));
    const mcp = await writeMcpConfig({ target: { protocolFamily: 'claude-stream-json', identity: 'claude-code' }, servers: [], files: plainWorkDirectoryFiles(workspace.workDirectory) });
    const requestsBefore = workspace.server.requests().length;

    const { result } = await collectRun(await backend.execute('hello [[scenario:text]]', { ...runOptions(), mcp }));

    expect(result.status).toBe('completed');
    const offered = workspace.server.requests().slice(requestsBefore).flatMap((request) => ((request.body as { tools?: { name?: string }[] } | undefined)?.tools ?? []).map((tool) => tool.name ?? ''));
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.filter((name) => name.startsWith('mcp__'))).toEqual([]);
  });
});
