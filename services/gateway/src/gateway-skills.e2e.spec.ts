import { access, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { SERVICE_PUBLISHERS, STREAM_CATALOG, skillContentHash, subjects } from '@switchyard/contracts';
import { type MessagingConnection } from '@switchyard/messaging';
import { readStream } from '@switchyard/messaging/testing';
import { startSystemProcesses, testCredentialsFile, type SystemProcesses } from '@switchyard/testing';
import { gatewayCaller, until, finishedTask, type LooseJson, type GatewayResponse } from './gateway-e2e.spec-helper';

const DAEMON_ID = 'daemon-skills-e2e';
const RUNTIME_ID = `${DAEMON_ID}-claude-code`;
const TOKEN = 'sy_skills-e2e-token-skills-000000000001';
const SKILL = 'release-notes';

const skillFiles = (marker: string): Record<string, string> => ({
  'SKILL.md': `---\nname: ${SKILL}\ndescription: Writes release notes in the house style ${marker}\n---\n\n# Release notes\n\nFollow templates/notes.md. Version marker: ${marker}.\n`,
  'templates/notes.md': `## What changed (${marker})\n`,
});

/**
 * Issue 17, item 1, every part real: queue, session-resume, transcript, gateway and daemon as
 * built processes on real NATS and Postgres, the real Claude Code on the mock model. A skill made
 * over REST reaches Claude's native skills folder in the task's work dir (through the gateway's
 * per-workspace object store and the daemon's cache) and the request the model receives; a changed
 * skill ships its new version to the next task. A daemon whose bus credentials name no workspace
 * may read no skills bucket: its run goes on without the skill and says why.
 */
describe('skills from the REST store to a real Claude Code run', () => {
  let system: SystemProcesses;
  let observer: MessagingConnection;
  let gatewayUrl = '';
  let agentId = '';
  let skillId = '';

  const call = gatewayCaller(() => gatewayUrl, TOKEN);
  const api = (method: string, route: string, body?: unknown): Promise<GatewayResponse> => call(method, route, { body });

  const finished = (taskId: string): Promise<LooseJson> => finishedTask(call, taskId);

  const queueEvent = async (type: 'task.started' | 'task.enqueued', taskId: string): Promise<LooseJson> => {
    const message = (await readStream(observer, STREAM_CATALOG.TASK_EVENTS.name)).find(
      (candidate) => candidate.subject === subjects.taskEvent({ type, taskId, publisher: SERVICE_PUBLISHERS.queue }),
    );
    if (!message) throw new Error(`no ${type} for task ${taskId}`);
    return (JSON.parse(message.text) as { payload: LooseJson }).payload;
  };

  /** The task's `skills not installed` warnings (log messages travel on the bus, not as timeline rows). */
  const skillWarnings = async (taskId: string): Promise<Array<{ type: string; level?: string; text?: string }>> =>
    (await readStream(observer, STREAM_CATALOG.TASK_EVENTS.name))
      .filter((message) => message.subject.startsWith(`task.message.${taskId}.`))
      .map((message) => (JSON.parse(message.text) as { payload: { message: { type: string; level?: string; text?: string } } }).payload.message)
      .filter((message) => message.type === 'log' && String(message.text).startsWith('skills not installed'));

  const agentOn = async (runtimeId: string, name: string): Promise<string> => {
    const agent = await api('POST', '/api/agents', {
      name,
      runtimeId,
      skills: [SKILL, 'not-in-the-store'],
      env: { ANTHROPIC_BASE_URL: system.model.url, ANTHROPIC_API_KEY: 'sk-mock-not-a-secret' },
    });
    expect(agent.status).toBe(201);
    return agent.body.id as string;
  };

  /** Runs one task and answers what the skill looked like to it: in the work dir, in the model's request. */
  const runTask = async (marker: string, agent = agentId): Promise<{ taskId: string; workDir: string; requestText: string }> => {
    const before = system.model.requests().length;
    const created = await api('POST', '/api/tasks', { agentId: agent, prompt: `Write the release notes ${marker} [[scenario:text]]` });
    expect(created.status).toBe(201);
    const taskId: string = created.body.taskId;
    expect(await finished(taskId)).toMatchObject({ status: 'completed' });
    const { workDir } = await queueEvent('task.started', taskId);
    const requestText = system.model
      .requests()
      .slice(before)
      .filter((request) => request.path === '/v1/messages')
      .map((request) => JSON.stringify(request.body))
      .join('\n');
    return { taskId, workDir, requestText };
  };

  beforeAll(async () => {
    system = await startSystemProcesses({ services: ['queue', 'session-resume', 'transcript', 'gateway'], gatewayToken: TOKEN });
    ({ gatewayUrl, connection: observer } = system);
    await system.startDaemon({ daemonId: DAEMON_ID });
    await until(async () => ((await api('GET', `/api/runtimes/${RUNTIME_ID}`)).status === 200 ? true : undefined), 'the Claude runtime is listed', 60_000);
    const skill = await api('POST', '/api/skills', { name: SKILL, files: skillFiles('marker-v1') });
    expect(skill.status).toBe(201);
    skillId = skill.body.id;
    agentId = await agentOn(RUNTIME_ID, 'Claude with skills');
  }, 240_000);

  afterAll(async () => {
    await system?.stop();
  });

  it('ships the skill into .claude/skills of the work dir and into the request the model receives; a missing one is said in the timeline', async () => {
    const run = await runTask('first-run');
    const enqueued = await queueEvent('task.enqueued', run.taskId);
    expect(enqueued.agent.skillVersions).toEqual([{ name: SKILL, hash: skillContentHash(skillFiles('marker-v1')) }]);

    const folder = path.join(run.workDir, '.claude', 'skills', SKILL);
    expect(await readFile(path.join(folder, 'SKILL.md'), 'utf8')).toBe(skillFiles('marker-v1')['SKILL.md']);
    expect(await readFile(path.join(folder, 'templates', 'notes.md'), 'utf8')).toBe(skillFiles('marker-v1')['templates/notes.md']);
    expect(await readFile(path.join(run.workDir, 'CLAUDE.md'), 'utf8')).toContain(`\`${SKILL}\` in \`.claude/skills/${SKILL}/\``);
    // Claude Code lists the skills it found (name and description) to the model.
    expect(run.requestText).toContain('Writes release notes in the house style marker-v1');

    expect(await skillWarnings(run.taskId)).toEqual([expect.objectContaining({ level: 'warn', text: 'skills not installed: not-in-the-store (not_found)' })]);
  });

  it('ships the new version after the skill changes over REST: new hash, new content in the work dir and the request', async () => {
    const changed = await api('PATCH', `/api/skills/${skillId}`, { files: skillFiles('marker-v2') });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ version: 2, contentHash: skillContentHash(skillFiles('marker-v2')) });

    const run = await runTask('second-run');
    const enqueued = await queueEvent('task.enqueued', run.taskId);
    expect(enqueued.agent.skillVersions).toEqual([{ name: SKILL, hash: skillContentHash(skillFiles('marker-v2')) }]);
    expect(await readFile(path.join(run.workDir, '.claude', 'skills', SKILL, 'SKILL.md'), 'utf8')).toContain('Version marker: marker-v2.');
    expect(await readFile(path.join(run.workDir, '.claude', 'skills', SKILL, 'templates', 'notes.md'), 'utf8')).toBe('## What changed (marker-v2)\n');
    expect(run.requestText).toContain('Writes release notes in the house style marker-v2');
    expect(run.requestText).not.toContain('marker-v1');
  });

  it('runs without skills on a daemon whose bus credentials name no workspace, and says why in the task log', async () => {
    const strangerId = 'daemon-skills-e2e-no-workspace';
    // Its own home: no skills cache of the other daemon's to fall back on.
    const strangerHome = path.join(system.home, 'no-workspace-daemon');
    await mkdir(strangerHome, { recursive: true });
    await system.startDaemon({
      daemonId: strangerId,
      env: { SWITCHYARD_HOME: strangerHome, NATS_CREDENTIALS_FILE: await testCredentialsFile({ kind: 'daemon', daemonId: strangerId }, system.namespace) },
    });
    const runtimeId = `${strangerId}-claude-code`;
    await until(async () => ((await api('GET', `/api/runtimes/${runtimeId}`)).status === 200 ? true : undefined), 'the second Claude runtime is listed', 60_000);

    const run = await runTask('no-workspace-run', await agentOn(runtimeId, 'Claude without skills access'));
    await expect(access(path.join(run.workDir, '.claude', 'skills', SKILL))).rejects.toThrow(/ENOENT/);
    expect(run.requestText).not.toContain('Writes release notes in the house style');
    expect(await skillWarnings(run.taskId)).toEqual([
      expect.objectContaining({
        level: 'warn',
        text: expect.stringMatching(/^skills not installed: release-notes \(access_refused: this daemon's bus credentials grant no read of workspace \S+'s skills .*\), not-in-the-store \(not_found\)$/),
      }),
    ]);
  });
});
