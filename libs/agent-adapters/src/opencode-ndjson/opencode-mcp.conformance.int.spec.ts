import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { DEFAULT_MOCK_MODEL } from '@switchyard/testing';
import type { Backend } from '../backend/backend.types';
import { collectRun } from '../backend/session-drain.spec-helper';
import { useMockModelWorkspace } from '../conformance/mock-model-workspace.spec-helper';
import { expectNoteWrittenThroughMcp, noteWriterServers, NOTE_WRITER_SERVER, writeNotePrompt } from '../conformance/mcp-tool.spec-helper';
import { realCli } from '../conformance/real-cli.spec-helper';
import { plainWorkDirectoryFiles } from '../mcp/mcp-servers.spec-helper';
import { writeMcpConfig } from '../runtime-wing/mcp-config.writer';
import { createOpenCodeBackend } from './opencode-ndjson.backend';
import { writeOpenCodeHome, type OpenCodeHome } from './opencode-home.writer';

const API_KEY_VARIABLE = 'SWITCHYARD_MOCK_API_KEY';
const RUN_TIMEOUT_MS = 180_000;

/** Real OpenCode takes the agent's MCP servers from `OPENCODE_CONFIG_CONTENT` (the `mcp` key), set in the run's env. */
describe('MCP on the real OpenCode CLI', () => {
  const workspace = useMockModelWorkspace('opencode-mcp');
  let openCodeHome: OpenCodeHome;
  let backend: Backend;

  beforeAll(async () => {
    openCodeHome = await writeOpenCodeHome({ directory: workspace.home, baseUrl: `${workspace.server.url}/v1`, model: DEFAULT_MOCK_MODEL, apiKeyVariable: API_KEY_VARIABLE });
    const cliVersion = execFileSync(realCli('opencode'), ['--version'], { env: baseEnvironment(), encoding: 'utf8', timeout: 60_000 }).trim();
    backend = createOpenCodeBackend({ cliVersion });
  }, RUN_TIMEOUT_MS);

  function baseEnvironment(): Record<string, string> {
    return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: workspace.home, [API_KEY_VARIABLE]: 'sk-mock-not-a-secret', ...openCodeHome.env };
  }

  it(
    'the mock model calls the MCP tool through OpenCode: the server writes the file, the timeline shows the use and its result',
    async () => {
      const mcp = await writeMcpConfig({ target: { protocolFamily: 'opencode-ndjson', identity: 'opencode' }, servers: noteWriterServers(), files: plainWorkDirectoryFiles(workspace.workDirectory) });
      if (mcp.kind !== 'opencode-config-content') throw new Error(`OpenCode should take its servers in its config variable, got ${mcp.kind}`);
      const target = path.join(workspace.workDirectory, 'note-from-opencode.txt');

      // As the daemon's exec env does: the variable goes into the run's environment.
      const { messages, result } = await collectRun(
        await backend.execute(writeNotePrompt(target, 'written by the MCP server for OpenCode'), {
          cwd: workspace.workDirectory,
          env: { ...baseEnvironment(), [mcp.environmentVariable]: mcp.content },
          executable: realCli('opencode'),
          model: openCodeHome.model,
          mcp,
          timeouts: { idleMs: 120_000, totalMs: RUN_TIMEOUT_MS },
        }),
      );

      expect(result).toMatchObject({ status: 'completed', toolRan: true });
      const toolUse = expectNoteWrittenThroughMcp({ messages, target, text: 'written by the MCP server for OpenCode' });
      expect(toolUse.tool).toBe(`${NOTE_WRITER_SERVER}_write_note`);
    },
    RUN_TIMEOUT_MS,
  );
});
