import { agentSnapshotSchema, taskSourceSchema } from '@switchyard/contracts';
import type { AgentRecord } from '../agents/agents.repository';
import { agentSnapshotOf, rerunSourceOf } from './agent-snapshot.builder';

const agent = (overrides: Partial<AgentRecord> = {}): AgentRecord => ({
  id: 'agent-1',
  name: 'Fixer',
  instructions: '',
  runtimeId: 'runtime-1',
  model: null,
  thinkingLevel: null,
  env: {},
  extraArgs: [],
  mcpServers: {},
  skills: [],
  maxConcurrentTasks: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  archivedAt: null,
  ...overrides,
});

describe('agent snapshot for task.enqueue', () => {
  it('is a valid contracts snapshot, with no MCP config when the agent has no servers', () => {
    const snapshot = agentSnapshotOf(agent());
    expect(agentSnapshotSchema.parse(snapshot)).toEqual(snapshot);
    expect(snapshot.mcpConfig).toBeNull();
  });

  it('carries env in clear and MCP servers in the daemon’s neutral form', () => {
    const snapshot = agentSnapshotOf(
      agent({ env: { KEY: 'value' }, mcpServers: { docs: { url: 'https://docs.example/mcp', transport: 'sse' } }, skills: ['review'], model: 'gpt-5', thinkingLevel: 'high' }),
    );
    expect(agentSnapshotSchema.parse(snapshot)).toMatchObject({
      env: { KEY: 'value' },
      mcpConfig: { servers: { docs: { url: 'https://docs.example/mcp', transport: 'sse' } } },
      skills: ['review'],
    });
  });
});

describe('agent snapshot skill versions', () => {
  it('carries the resolved versions beside the names, none by default', () => {
    expect(agentSnapshotOf(agent({ skills: ['review'] })).skillVersions).toEqual([]);
    const snapshot = agentSnapshotOf(agent({ skills: ['review', 'missing'] }), [{ name: 'review', hash: 'b'.repeat(64) }]);
    expect(agentSnapshotSchema.parse(snapshot)).toMatchObject({ skills: ['review', 'missing'], skillVersions: [{ name: 'review', hash: 'b'.repeat(64) }] });
  });
});

describe('rerun source', () => {
  it('turns an issue source into a rerun of the same issue', () => {
    expect(rerunSourceOf({ kind: 'issue', issueId: 'issue-1', trigger: 'assignment', commentId: 'comment-1' })).toEqual({
      kind: 'issue',
      issueId: 'issue-1',
      trigger: 'rerun',
      commentId: null,
    });
  });

  it.each([{ kind: 'quick_create' }, { kind: 'chat', chatSessionId: 'chat-1', chatMessageId: 'message-1' }, { kind: 'autopilot', autopilotId: 'a-1', trigger: 'manual' }] as const)(
    'keeps a $kind source as it was',
    (source) => {
      expect(rerunSourceOf(taskSourceSchema.parse(source))).toEqual(source);
    },
  );
});
