import path from 'node:path';
import type { BackendExecuteOptions } from '../backend/backend.types';
import { collectRun } from '../backend/session-drain.spec-helper';
import { useMockModelWorkspace } from '../conformance/mock-model-workspace.spec-helper';
import { expectNoteWrittenThroughMcp, noteWriterServers, NOTE_WRITER_SERVER, writeNotePrompt } from '../conformance/mcp-tool.spec-helper';
import { realCli } from '../conformance/real-cli.spec-helper';
import { plainWorkDirectoryFiles } from '../mcp/mcp-servers.spec-helper';
import { writeMcpConfig } from '../runtime-wing/mcp-config.writer';
import { createGeminiAcpBackend } from './acp.backend';
import { writeGeminiHome } from './gemini-home.writer';

/** Real Gemini CLI over ACP takes the agent's MCP servers in `session/new`'s `mcpServers`. */
describe('MCP on the real Gemini CLI (gemini --acp)', () => {
  const workspace = useMockModelWorkspace('gemini-mcp');
  const backend = createGeminiAcpBackend();

  beforeAll(() => writeGeminiHome({ home: workspace.home }));

  async function executeOptions(resumeSessionId?: string): Promise<BackendExecuteOptions> {
    const mcp = await writeMcpConfig({ target: { protocolFamily: 'acp', identity: 'gemini-cli' }, servers: noteWriterServers(), files: plainWorkDirectoryFiles(workspace.workDirectory) });
    return {
      cwd: workspace.workDirectory,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: workspace.home,
        GOOGLE_GEMINI_BASE_URL: workspace.server.url,
        GEMINI_API_KEY: 'mock-not-a-secret',
        GEMINI_CLI_NO_RELAUNCH: 'true',
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
      },
      executable: realCli('gemini'),
      mcp,
      ...(resumeSessionId ? { resumeSessionId } : {}),
      timeouts: { idleMs: 60_000, totalMs: 120_000 },
    };
  }

  it('the mock model calls the MCP tool through Gemini CLI: the server writes the file, the timeline shows the use and its result', async () => {
    const target = path.join(workspace.workDirectory, 'note-from-gemini.txt');

    const { messages, result } = await collectRun(await backend.execute(writeNotePrompt(target, 'written by the MCP server for Gemini'), await executeOptions()));

    expect(result).toMatchObject({ status: 'completed', toolRan: true });
    // ACP names a call by kind and title only: Gemini titles it `write_note (notes MCP Server)`.
    const toolUse = expectNoteWrittenThroughMcp({ messages, target, text: 'written by the MCP server for Gemini', isNoteToolUse: (message) => JSON.stringify(message.input).includes(`write_note (${NOTE_WRITER_SERVER} MCP Server)`) });
    expect(toolUse).toMatchObject({ tool: 'other', input: { title: `write_note (${NOTE_WRITER_SERVER} MCP Server)` } });
  });

  it(
    'a resumed session gets the servers again in session/load',
    async () => {
      const first = await collectRun(await backend.execute('hello [[scenario:text]]', await executeOptions()));
      expect(first.result.status).toBe('completed');
      const target = path.join(workspace.workDirectory, 'note-after-load.txt');

      // The backend first waits out Gemini CLI's same-minute load bug (see waitOutGeminiSameMinuteLoad).
      const { messages, result } = await collectRun(await backend.execute(writeNotePrompt(target, 'written after session/load'), await executeOptions(first.result.sessionId)));

      expect(result).toMatchObject({ status: 'completed', sessionId: first.result.sessionId, resumeRejected: false });
      expectNoteWrittenThroughMcp({ messages, target, text: 'written after session/load', isNoteToolUse: (message) => JSON.stringify(message.input).includes(`write_note (${NOTE_WRITER_SERVER} MCP Server)`) });
    },
    240_000,
  );
});
