import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentMessage } from '@switchyard/contracts';
import { collectRun } from '../backend/session-drain.spec-helper';
import { SAMPLE_MCP_SERVERS } from '../mcp/mcp-servers.spec-helper';
import type { McpArtefacts } from '../mcp/mcp-artefacts.types';
import { createAcpBackend } from './acp.backend';
import { toAcpMcpServers } from './acp-mcp.servers';

const FAKE_ACP_AGENT = path.join(__dirname, '__fixtures__', 'fake-acp-agent.js');

/** What the scripted agent reports of the session it was asked to open. */
interface SeenMcpServers {
  readonly method: string;
  readonly servers: readonly { readonly name: string }[];
}

const ARTEFACTS: McpArtefacts = { kind: 'acp-session', mcpServers: toAcpMcpServers(SAMPLE_MCP_SERVERS), serverNames: ['docs', 'events', 'github'] };

async function openSession(options: { mcpCapabilities?: { http?: boolean; sse?: boolean }; resumeSessionId?: string; resumeMethod?: 'session/load' | 'session/resume' }) {
  const backend = createAcpBackend({ adapterArgs: [JSON.stringify({ mcpCapabilities: options.mcpCapabilities })], resumeQuietMs: 20, ...(options.resumeMethod ? { resumeMethod: options.resumeMethod } : {}) });
  const { messages, result } = await collectRun(
    await backend.execute('hello', {
      cwd: tmpdir(),
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      executable: process.execPath,
      launchArgs: [FAKE_ACP_AGENT],
      mcp: ARTEFACTS,
      ...(options.resumeSessionId ? { resumeSessionId: options.resumeSessionId } : {}),
      timeouts: { idleMs: 10_000, totalMs: 20_000, exitGraceMs: 2000 },
    }),
  );
  const answer = messages.filter((message): message is Extract<AgentMessage, { type: 'text' }> => message.type === 'text').at(-1);
  const seen = answer ? (JSON.parse(answer.text) as { mcpServers?: SeenMcpServers }).mcpServers : undefined;
  return { messages, result, seen, warnings: messages.filter((message) => message.type === 'log' && message.level === 'warn') };
}

/** The ACP backend hands the agent its MCP servers when it opens or reopens a session (scripted agent). */
describe('ACP backend: MCP servers in the session', () => {
  it('given an agent that advertises no MCP capability, when a session is opened, then it gets stdio only and the timeline names the rest', async () => {
    const { result, seen, warnings } = await openSession({});

    expect(result.status).toBe('completed');
    expect(seen).toEqual({ method: 'session/new', servers: [{ name: 'github', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: [{ name: 'GITHUB_TOKEN', value: 'ghp_"quoted"\\x' }] }] });
    expect(warnings).toEqual([{ type: 'log', level: 'warn', text: 'MCP servers not delivered: the agent does not advertise their transport in mcpCapabilities: docs (http), events (sse)' }]);
  });

  it('given an agent that advertises http and sse, then every server goes and nothing is warned', async () => {
    const { seen, warnings } = await openSession({ mcpCapabilities: { http: true, sse: true } });

    expect(seen?.servers.map((server) => server.name)).toEqual(['docs', 'events', 'github']);
    expect(warnings).toEqual([]);
  });

  it.each(['session/load', 'session/resume'] as const)('given a resumed run, then %s carries the servers too', async (resumeMethod) => {
    const { result, seen } = await openSession({ mcpCapabilities: { http: true }, resumeSessionId: 'fake-session-1', resumeMethod });

    expect(result).toMatchObject({ status: 'completed', sessionId: 'fake-session-1' });
    expect(seen).toMatchObject({ method: resumeMethod });
    expect(seen?.servers.map((server) => server.name)).toEqual(['docs', 'github']);
  });
});
