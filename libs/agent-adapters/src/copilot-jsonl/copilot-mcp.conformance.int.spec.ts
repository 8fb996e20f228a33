import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_MOCK_MODEL } from '@switchyard/testing';
import { collectRun } from '../backend/session-drain.spec-helper';
import { useMockModelWorkspace } from '../conformance/mock-model-workspace.spec-helper';
import { expectNoteWrittenThroughMcp, noteWriterServers, NOTE_WRITER_SERVER, writeNotePrompt } from '../conformance/mcp-tool.spec-helper';
import { realCli } from '../conformance/real-cli.spec-helper';
import { plainWorkDirectoryFiles } from '../mcp/mcp-servers.spec-helper';
import { writeMcpConfig } from '../runtime-wing/mcp-config.writer';
import { createCopilotJsonlBackend } from './copilot-jsonl.backend';
import { copilotEnvironment } from './copilot.environment';

/** Real Copilot CLI takes the agent's MCP servers from `--additional-mcp-config @<file>`. */
describe('MCP on the real Copilot CLI', () => {
  const workspace = useMockModelWorkspace('copilot-mcp');
  let usageFileDirectory: string;

  beforeAll(async () => {
    usageFileDirectory = await mkdtemp(path.join(tmpdir(), 'switchyard-copilot-mcp-usage-'));
  });
  afterAll(async () => {
    if (usageFileDirectory) await rm(usageFileDirectory, { recursive: true, force: true });
  });

  it(
    'the mock model calls the MCP tool through Copilot: the server writes the file, the timeline shows the use and its result',
    async () => {
      const mcp = await writeMcpConfig({ target: { protocolFamily: 'copilot-jsonl', identity: 'copilot' }, servers: noteWriterServers(), files: plainWorkDirectoryFiles(workspace.workDirectory) });
      expect(mcp).toMatchObject({ kind: 'copilot-config-file', serverNames: ['notes'] });
      const target = path.join(workspace.workDirectory, 'note-from-copilot.txt');

      const { messages, result } = await collectRun(
        await createCopilotJsonlBackend({ usageFileDirectory }).execute(writeNotePrompt(target, 'written by the MCP server for Copilot'), {
          cwd: workspace.workDirectory,
          env: {
            PATH: process.env['PATH'] ?? '/usr/bin:/bin',
            HOME: workspace.home,
            ...copilotEnvironment({ baseUrl: `${workspace.server.url}/v1`, apiKey: 'sk-mock-not-a-secret', model: DEFAULT_MOCK_MODEL }),
          },
          executable: realCli('copilot'),
          mcp,
          timeouts: { idleMs: 120_000, totalMs: 180_000 },
        }),
      );

      expect(result).toMatchObject({ status: 'completed', toolRan: true });
      const toolUse = expectNoteWrittenThroughMcp({ messages, target, text: 'written by the MCP server for Copilot' });
      expect(toolUse.tool).toBe(`${NOTE_WRITER_SERVER}-write_note`);
    },
    240_000,
  );
});
