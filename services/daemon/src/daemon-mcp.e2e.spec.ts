import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentMessage } from '@switchyard/contracts';
import { noteWriterMcpServer, sampleAgentSnapshot, writeNoteMarker } from '@switchyard/testing';
import { startDaemonE2eStack, type DaemonE2eStack } from './daemon-e2e.spec-helper';

const DAEMON_ID = 'daemon-mcp-e2e';

/** How each CLI names the note writer's tool in the timeline (ACP's Gemini CLI: by title only). */
const RUNTIMES = [
  { identity: 'claude-code', model: null, env: (url: string) => ({ ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'sk-mock-not-a-secret' }), toolUse: (message: ToolUse) => message.tool === 'mcp__notes__write_note' },
  { identity: 'codex', model: 'mock-model', env: (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }), toolUse: (message: ToolUse) => message.tool === 'notes.write_note' },
  { identity: 'gemini-cli', model: null, env: (url: string) => ({ GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'mock-not-a-secret' }), toolUse: (message: ToolUse) => JSON.stringify(message.input).includes('write_note (notes MCP Server)') },
  { identity: 'qwen-code', model: 'mock-model', env: (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }), toolUse: (message: ToolUse) => message.tool === 'mcp__notes__write_note' },
  { identity: 'opencode', model: 'mock-model', env: (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }), toolUse: (message: ToolUse) => message.tool === 'notes_write_note' },
  { identity: 'copilot', model: 'mock-model', env: (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }), toolUse: (message: ToolUse) => message.tool === 'notes-write_note' },
] as const;

type ToolUse = Extract<AgentMessage, { type: 'tool-use' }>;

/** The agent's neutral MCP config, as the gateway stores it: the note writer as a stdio server. */
function noteWriterConfig(): { servers: { notes: { command: string; args: string[] } } } {
  const { command, args } = noteWriterMcpServer();
  return { servers: { notes: { command, args: [...args] } } };
}

/**
 * End to end, every part real: an agent's MCP server goes from its snapshot through the queue and
 * the daemon's exec env into each real CLI, which the mock model drives to call the server's tool;
 * the server writes the file and the task's timeline shows the call and its result. A CLI without
 * MCP (Pi) runs the task and the timeline says the server was not given.
 */
describe('an agent\'s MCP server, through the queue and the daemon, in every real CLI that takes one', () => {
  let stack: DaemonE2eStack;

  beforeAll(async () => {
    stack = await startDaemonE2eStack();
    await stack.startDaemon({ daemonId: DAEMON_ID });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('each CLI calls the MCP tool: the file is written and the timeline holds the tool use and its result', async () => {
    const runs = await Promise.all(
      RUNTIMES.map(async (runtime) => {
        const target = path.join(stack.home, `note-${runtime.identity}.txt`);
        const taskId = await stack.enqueue({
          agentId: `agent-mcp-${runtime.identity}`,
          agent: sampleAgentSnapshot({ model: runtime.model, env: runtime.env(stack.model.url), mcpConfig: noteWriterConfig() }),
          runtimeId: `${DAEMON_ID}-${runtime.identity}`,
          source: { kind: 'chat', chatSessionId: `chat-mcp-${runtime.identity}`, chatMessageId: `message-mcp-${runtime.identity}` },
          prompt: `Write the note with the MCP tool ${writeNoteMarker(target, `noted by ${runtime.identity}`)}`,
        });
        return { runtime, target, taskId };
      }),
    );

    for (const run of runs) {
      const ended = await stack.waitForTask(run.taskId, ['completed', 'failed', 'cancelled'], 300_000);
      const timeline = (await stack.timeline(run.taskId)).map((entry) => entry.message);
      // On failure, the timeline says what the CLI did instead.
      expect({ identity: run.runtime.identity, status: ended.status, written: await readFile(run.target, 'utf8').catch(() => JSON.stringify(timeline)) }).toEqual({
        identity: run.runtime.identity,
        status: 'completed',
        written: `noted by ${run.runtime.identity}`,
      });
      const toolUse = timeline.find((message): message is ToolUse => message.type === 'tool-use' && run.runtime.toolUse(message));
      expect({ identity: run.runtime.identity, toolUse: toolUse !== undefined }).toEqual({ identity: run.runtime.identity, toolUse: true });
      expect(timeline).toContainEqual(expect.objectContaining({ type: 'tool-result', callId: toolUse?.callId, status: 'ok', output: expect.stringContaining(`note written to ${run.target}`) as string }));
      expect(timeline.filter((message) => message.type === 'log' && message.level === 'warn')).toEqual([]);
    }
  }, 600_000);

  it('a CLI without MCP (Pi) still runs the task, and its timeline names the server it did not get', async () => {
    const taskId = await stack.enqueue({
      agentId: 'agent-mcp-pi',
      agent: sampleAgentSnapshot({ model: 'mock-model', env: { OPENAI_BASE_URL: `${stack.model.url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }, mcpConfig: noteWriterConfig() }),
      runtimeId: `${DAEMON_ID}-pi`,
      source: { kind: 'chat', chatSessionId: 'chat-mcp-pi', chatMessageId: 'message-mcp-pi' },
      prompt: 'hello [[scenario:text]]',
    });

    expect(await stack.waitForTask(taskId, ['completed', 'failed', 'cancelled'], 300_000)).toMatchObject({ status: 'completed' });
    expect((await stack.timeline(taskId)).map((entry) => entry.message)).toContainEqual({ type: 'log', level: 'warn', text: 'MCP servers not delivered: this CLI takes no MCP servers from Switchyard: notes' });
  }, 300_000);
});
