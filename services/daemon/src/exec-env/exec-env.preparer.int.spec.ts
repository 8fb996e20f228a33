import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { sampleAgentSnapshot } from '@switchyard/testing';
import { CONTEXT_BLOCK_BEGIN, renderContextBody } from './context-file.writer';
import { createTemporaryDirectory, sampleClaimedTask } from './exec-env.spec-helper';
import { prepareExecEnv, type PrepareExecEnvOptions } from './exec-env.preparer';
import type { SkillContent } from './skills.installer';

const provideSkill = (name: string): Promise<SkillContent | undefined> =>
  Promise.resolve(name === 'review' ? { files: { 'SKILL.md': '---\nname: review\n---\nReview carefully.' } } : undefined);

describe('prepareExecEnv', () => {
  let temporary: { path: string; remove: () => Promise<void> };
  let options: PrepareExecEnvOptions;
  beforeEach(async () => {
    temporary = await createTemporaryDirectory();
    options = {
      root: path.join(temporary.path, 'workspaces'),
      ownerId: 'owner-1',
      task: sampleClaimedTask({
        agent: sampleAgentSnapshot({
          instructions: 'Be brief.',
          skills: ['review', 'missing'],
          env: { GITHUB_ORG: 'acme', NODE_OPTIONS: '--inspect' },
          mcpConfig: { servers: { github: { command: 'npx', args: ['server-github'] } } },
        }),
      }),
      protocolFamily: 'claude-stream-json',
      priorWorkDirectory: null,
      provideSkill,
      home: path.join(temporary.path, 'home'),
      path: '/usr/bin:/bin',
    };
  });
  afterEach(() => temporary.remove());

  it('composes work directory, context file, skills, MCP and env for Claude Code', async () => {
    const prepared = await prepareExecEnv(options);

    expect(prepared).toMatchObject({ reused: false, reason: 'no_prior_work_directory' });
    expect(prepared.contextFile).toMatchObject({ fileName: 'CLAUDE.md', status: 'created' });
    const context = await readFile(prepared.contextFile.path, 'utf8');
    expect(context.startsWith(CONTEXT_BLOCK_BEGIN)).toBe(true);
    expect(context).toContain('Be brief.');
    expect(context).not.toContain(options.task.taskToken);
    expect(await readFile(path.join(prepared.workDirectory, '.claude/skills/review/SKILL.md'), 'utf8')).toContain('Review carefully.');
    expect(prepared.skills.skipped).toEqual([{ name: 'missing', reason: 'not_found' }]);
    expect(prepared.mcp).toMatchObject({ kind: 'claude-config-file', serverNames: ['github'] });
    expect(prepared.environment).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: options.home,
      LANG: 'C.UTF-8',
      TERM: 'dumb',
      TMPDIR: path.join(prepared.workDirectory, '.switchyard', 'tmp'),
      GIT_AUTHOR_NAME: 'Test agent',
      GIT_AUTHOR_EMAIL: 'agent-agent-1@agents.switchyard.invalid',
      GIT_COMMITTER_NAME: 'Test agent',
      GIT_COMMITTER_EMAIL: 'agent-agent-1@agents.switchyard.invalid',
      GITHUB_ORG: 'acme',
      SWITCHYARD_TASK_ID: options.task.taskId,
      SWITCHYARD_TOKEN: options.task.taskToken,
      SWITCHYARD_WORKSPACE_ID: 'workspace-1',
      SWITCHYARD_AGENT_ID: 'agent-1',
      SWITCHYARD_ATTEMPT: '1',
      SWITCHYARD_ISSUE_ID: 'issue-1',
    });
    expect(prepared.rejectedEnvironmentKeys).toEqual([{ key: 'NODE_OPTIONS', origin: 'agent', reason: 'blocked' }]);
  });

  it('reuses the prior directory for the next task of the issue and refreshes its context in place', async () => {
    const first = await prepareExecEnv(options);
    const second = await prepareExecEnv({
      ...options,
      task: { ...options.task, taskId: 'task-2' },
      priorWorkDirectory: first.workDirectory,
    });

    expect(second).toMatchObject({ workDirectory: first.workDirectory, reused: true, reason: 'reused' });
    expect(second.contextFile.status).toBe('replaced');
    const context = await readFile(second.contextFile.path, 'utf8');
    expect(context.split(CONTEXT_BLOCK_BEGIN)).toHaveLength(2);
    expect(context).toContain('task-2');
  });

  it('ignores the prior directory when the task is forced fresh', async () => {
    const first = await prepareExecEnv(options);
    const second = await prepareExecEnv({ ...options, task: { ...options.task, forceFreshSession: true }, priorWorkDirectory: first.workDirectory });
    expect(second).toMatchObject({ reused: false, reason: 'no_prior_work_directory' });
  });

  it('hands the runtime brief over inline only to CLIs that read no context file', async () => {
    const kimi = await prepareExecEnv({ ...options, protocolFamily: 'acp', runtimeIdentity: 'kimi' });
    expect(kimi.inlineRuntimeBrief).toContain('# Agent instructions');
    // The brief lists the skills installed for the run.
    expect(kimi.inlineRuntimeBrief).toBe(renderContextBody(options.task, [{ name: 'review', folder: '.kimi/skills/review' }]));

    const claude = await prepareExecEnv(options);
    expect(claude.inlineRuntimeBrief).toBeNull();
  });

  it('uses native forms for other CLIs: Gemini over ACP, Codex, OpenCode', async () => {
    const gemini = await prepareExecEnv({ ...options, protocolFamily: 'acp', runtimeIdentity: 'gemini-cli' });
    expect(gemini.contextFile.fileName).toBe('GEMINI.md');
    expect(await readdir(path.join(gemini.workDirectory, '.gemini/skills'))).toEqual(['review']);
    expect(gemini.mcp).toMatchObject({ kind: 'acp-session', mcpServers: [{ name: 'github', command: 'npx' }] });

    const codex = await prepareExecEnv({ ...options, protocolFamily: 'codex-app-server', runtimeEnvironment: { CODEX_HOME: '/tmp/codex-home' } });
    expect(codex.contextFile.fileName).toBe('AGENTS.md');
    expect(await readdir(path.join(codex.workDirectory, '.agents/skills'))).toEqual(['review']);
    expect(codex.mcp).toMatchObject({ kind: 'codex-thread-config', mcpServers: { github: { command: 'npx' } } });
    expect(codex.environment['CODEX_HOME']).toBe('/tmp/codex-home');

    const opencode = await prepareExecEnv({ ...options, protocolFamily: 'opencode-ndjson' });
    expect(JSON.parse(opencode.environment['OPENCODE_CONFIG_CONTENT'] ?? '{}')).toMatchObject({ mcp: { github: { type: 'local' } } });
  });

  it('fails on an invalid MCP config before creating anything', async () => {
    const task = { ...options.task, agent: { ...options.task.agent, mcpConfig: { servers: { 'bad name': { command: 'x' } } } } };
    await expect(prepareExecEnv({ ...options, task })).rejects.toMatchObject({ code: 'invalid_mcp_config' });
    await expect(readdir(options.root)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
