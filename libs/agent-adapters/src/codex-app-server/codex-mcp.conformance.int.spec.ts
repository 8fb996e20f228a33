import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { DEFAULT_MOCK_MODEL, startMockModelServer, type MockModelServer } from '@switchyard/testing';
import type { BackendExecuteOptions } from '../backend/backend.types';
import { collectRun } from '../backend/session-drain.spec-helper';
import { expectNoteWrittenThroughMcp, noteWriterServers, NOTE_WRITER_SERVER, writeNotePrompt } from '../conformance/mcp-tool.spec-helper';
import { realCli } from '../conformance/real-cli.spec-helper';
import { plainWorkDirectoryFiles } from '../mcp/mcp-servers.spec-helper';
import type { McpServer } from '../mcp/mcp-server.types';
import { writeMcpConfig } from '../runtime-wing/mcp-config.writer';
import { createCodexAppServerBackend } from './codex-app-server.backend';
import { writeCodexHome } from './codex-home.writer';

const API_KEY_VARIABLE = 'SWITCHYARD_MOCK_API_KEY';

/**
 * Real `codex app-server` takes the agent's MCP servers per thread, in the `config` override of
 * `thread/start` / `thread/resume`: the shared `CODEX_HOME/config.toml` is never rewritten.
 */
describe('MCP on the real Codex CLI', () => {
  let server: MockModelServer;
  let root: string;
  let codexHome: string;
  let workDirectory: string;
  const backend = createCodexAppServerBackend();

  beforeAll(async () => {
    server = await startMockModelServer({});
    const base = path.join(homedir(), '.cache', 'switchyard-codex');
    await mkdir(base, { recursive: true });
    root = await mkdtemp(path.join(base, 'mcp-'));
    codexHome = path.join(root, 'codex-home');
    workDirectory = path.join(root, 'work');
    await mkdir(workDirectory, { recursive: true });
    // The mock's slug is unknown to Codex: its cloned catalog entry does not support tool search, so
    // Codex offers MCP tools upfront (it defers them behind `tool_search` for models that search).
    await writeCodexHome({ directory: codexHome, baseUrl: `${server.url}/v1`, model: DEFAULT_MOCK_MODEL, apiKeyVariable: API_KEY_VARIABLE, codexExecutable: realCli('codex') });
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  async function runWithNoteWriter(prompt: string, resumeSessionId?: string, servers: McpServer[] = noteWriterServers()) {
    const mcp = await writeMcpConfig({ target: { protocolFamily: 'codex-app-server', identity: 'codex' }, servers, files: plainWorkDirectoryFiles(workDirectory) });
    const options: BackendExecuteOptions = {
      cwd: workDirectory,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: root, CODEX_HOME: codexHome, [API_KEY_VARIABLE]: 'sk-mock-not-a-secret' },
      executable: realCli('codex'),
      mcp,
      ...(resumeSessionId ? { resumeSessionId } : {}),
      timeouts: { idleMs: 60_000, totalMs: 120_000 },
    };
    return collectRun(await backend.execute(prompt, options));
  }

  it('the mock model calls the MCP tool through Codex: the server writes the file, the timeline shows the use and its result', async () => {
    const configBefore = await readFile(path.join(codexHome, 'config.toml'), 'utf8');
    const target = path.join(workDirectory, 'note-from-codex.txt');

    const { messages, result } = await runWithNoteWriter(writeNotePrompt(target, 'written by the MCP server for Codex'));

    expect(result).toMatchObject({ status: 'completed', toolRan: true });
    const toolUse = expectNoteWrittenThroughMcp({ messages, target, text: 'written by the MCP server for Codex' });
    expect(toolUse.tool).toBe(`${NOTE_WRITER_SERVER}.write_note`);
    await expect(readFile(path.join(codexHome, 'config.toml'), 'utf8')).resolves.toBe(configBefore);
    expect(messages.filter((message) => message.type === 'log' && message.level === 'warn')).toEqual([]);
  });

  it('a server that fails to start is named in the timeline, and the turn goes on without it', async () => {
    const broken: McpServer = { kind: 'stdio', name: 'broken', command: process.execPath, args: ['-e', 'process.exit(3)'], env: {} };

    const { messages, result } = await runWithNoteWriter('hello [[scenario:text]]', undefined, [broken, ...noteWriterServers()]);

    expect(result.status).toBe('completed');
    expect(messages).toContainEqual({ type: 'log', level: 'warn', text: expect.stringMatching(/^MCP servers not ready when the turn started: broken \(failed/) as string });
  });

  it('a resumed thread gets the servers again (thread/resume)', async () => {
    const first = await runWithNoteWriter('hello [[scenario:text]]');
    expect(first.result.status).toBe('completed');
    const target = path.join(workDirectory, 'note-after-resume.txt');

    const { messages, result } = await runWithNoteWriter(writeNotePrompt(target, 'written after resume'), first.result.sessionId);

    expect(result).toMatchObject({ status: 'completed', sessionId: first.result.sessionId, resumeRejected: false });
    expectNoteWrittenThroughMcp({ messages, target, text: 'written after resume' });
  });
});
