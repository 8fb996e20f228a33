import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVICE_PUBLISHERS, STREAM_CATALOG, subjects } from '@switchyard/contracts';
import type { MessagingConnection } from '@switchyard/messaging';
import { readStream } from '@switchyard/messaging/testing';
import { createOriginRepository, startGitHttpServer, startSystemProcesses, type GitHttpServer, type OriginRepository, type SystemProcesses } from '@switchyard/testing';
import { finishedTask, gatewayCaller, until, type GatewayResponse, type LooseJson } from './gateway-e2e.spec-helper';

const DAEMON_ID = 'daemon-repositories-e2e';
const RUNTIME_ID = `${DAEMON_ID}-claude-code`;
const TOKEN = 'sy_repositories-e2e-token-repositories-01';
const GIT_USER = 'x-access-token';
const GIT_TOKEN = 'ghp-e2e-0190f3a2-repository-token';
/** The branch the default template names: `switchyard/issue-<8 hex>/<8 hex>`. */
const TASK_BRANCH = /^switchyard\/issue-[0-9a-f]{8}\/[0-9a-f]{8}$/;

/**
 * Issue 18 end to end, every part real: queue, session-resume, transcript, gateway and a daemon as
 * built processes on real NATS and Postgres, the real Claude Code on the mock model, real git
 * against bare repositories on local paths and behind a smart-HTTP server with basic auth. Projects
 * and repositories are made over REST; an issue of a project runs in a worktree of its repository.
 */
describe('repositories: agents work in worktrees the daemon keeps and cleans (real Claude Code, real git)', () => {
  let system: SystemProcesses;
  let observer: MessagingConnection;
  let scratch = '';
  let logDirectory = '';
  let origin: OriginRepository;
  let gitServer: GitHttpServer;
  let gatewayUrl = '';
  let agentId = '';

  const call = gatewayCaller(() => gatewayUrl, TOKEN);
  const api = (method: string, route: string, body?: unknown): Promise<GatewayResponse> => call(method, route, { body });
  const finished = (taskId: string): Promise<LooseJson> => finishedTask(call, taskId);
  const gatePath = (name: string): string => path.join(scratch, 'gates', name);
  const gated = (name: string, then: string): string => `until test -f ${gatePath(name)}; do sleep 0.2; done; ${then}`;
  const openGate = (name: string): Promise<void> => writeFile(gatePath(name), 'open');

  /** A project with its repositories, over REST. */
  const project = async (name: string, repositories: readonly Record<string, unknown>[]): Promise<void> => {
    const created = await api('POST', '/api/projects', { name });
    expect(created.status).toBe(201);
    for (const repository of repositories) {
      const added = await api('POST', `/api/projects/${created.body.id}/repositories`, repository);
      expect(added.status).toBe(201);
    }
  };

  /** An issue of the project assigned to the agent, whose run calls the shell with `command`. */
  const issue = async (projectName: string, title: string, command: string): Promise<{ issueId: string; taskId: string }> => {
    const created = await api('POST', '/api/issues', { title, project: projectName, description: `[[scenario:tool-command ${command}]]`, assigneeAgentId: agentId });
    expect(created.status).toBe(201);
    return { issueId: created.body.id, taskId: created.body.tasks[0].taskId };
  };

  /** A follow-up: the issue's description no longer steers the mock (its first marker wins), the comment does. */
  const followUp = async (issueId: string, command: string): Promise<string> => {
    expect((await api('PATCH', `/api/issues/${issueId}`, { description: 'Follow-up below.' })).status).toBe(200);
    const comment = await api('POST', `/api/issues/${issueId}/comments`, { body: `Go on. [[scenario:tool-command ${command}]]`, mentionAgentIds: [agentId] });
    expect(comment.status).toBe(201);
    return comment.body.tasks[0].taskId as string;
  };

  const taskStatus = (taskId: string, status: string): Promise<true> =>
    until(async () => ((await api('GET', `/api/tasks/${taskId}`)).body?.status === status ? true : undefined), `task ${taskId} is ${status}`);

  /** The work dir each started attempt of the task ran in, from its `task.started` events. */
  const workDirectoriesOf = async (taskId: string): Promise<string[]> =>
    (await readStream(observer, STREAM_CATALOG.TASK_EVENTS.name))
      .filter((message) => message.subject === subjects.taskEvent({ type: 'task.started', taskId, publisher: SERVICE_PUBLISHERS.queue }))
      .map((message) => (JSON.parse(message.text) as { payload: { workDir: string } }).payload.workDir);

  const outputOf = async (taskId: string): Promise<string> => {
    const [completed] = (await readStream(observer, STREAM_CATALOG.TASK_EVENTS.name))
      .filter((message) => message.subject === subjects.taskEvent({ type: 'task.completed', taskId, publisher: SERVICE_PUBLISHERS.queue }))
      .map((message) => JSON.parse(message.text) as { payload: { output: string | null } });
    return completed?.payload.output ?? '';
  };

  const git = (directory: string, ...args: string[]): string => execFileSync('git', ['-C', directory, ...args], { encoding: 'utf8' }).trim();

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'switchyard-repositories-e2e-'));
    await mkdir(gatePath(''), { recursive: true });
    origin = await createOriginRepository({ directory: path.join(scratch, 'origins', 'app.git'), files: { 'README.md': 'app\n', 'src/index.ts': 'export {};\n' } });
    await createOriginRepository({ directory: path.join(scratch, 'served', 'private.git'), files: { 'README.md': 'private\n' } });
    gitServer = await startGitHttpServer({ root: path.join(scratch, 'served'), username: GIT_USER, password: 'the-right-password' });
    // Every child's log lines into files, to search them for the credential.
    const before = process.env['SWITCHYARD_CHILD_LOG_DIR'];
    logDirectory = await mkdtemp(path.join(scratch, 'logs-'));
    process.env['SWITCHYARD_CHILD_LOG_DIR'] = logDirectory;
    try {
      system = await startSystemProcesses({ services: ['queue', 'session-resume', 'transcript', 'gateway'], gatewayToken: TOKEN });
      ({ gatewayUrl, connection: observer } = system);
      // The GC walks every half second; only directories older than an hour go (the test ages one by its marker).
      await system.startDaemon({ daemonId: DAEMON_ID, env: { DAEMON_WORKDIR_GC_INTERVAL_MS: '500', DAEMON_WORKDIR_MAX_AGE_MS: String(60 * 60_000) } });
    } finally {
      if (before === undefined) delete process.env['SWITCHYARD_CHILD_LOG_DIR'];
      else process.env['SWITCHYARD_CHILD_LOG_DIR'] = before;
    }
    await until(async () => ((await api('GET', `/api/runtimes/${RUNTIME_ID}`)).status === 200 ? true : undefined), 'the Claude runtime is listed', 60_000);
    // Several of its tasks run at once (concurrent worktrees, a task waiting for a local directory).
    const agent = await api('POST', '/api/agents', { name: 'Claude', runtimeId: RUNTIME_ID, maxConcurrentTasks: 4, env: { ANTHROPIC_BASE_URL: system.model.url, ANTHROPIC_API_KEY: 'sk-mock-not-a-secret' } });
    expect(agent.status).toBe(201);
    agentId = agent.body.id;
    await project('Platform', [{ name: 'app', url: origin.url }]);
  }, 240_000);

  afterAll(async () => {
    await system?.stop();
    await gitServer?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('Claude commits in its worktree; the task reports branch, head and diff; a follow-up comment continues in the same worktree', async () => {
    const first = await issue('Platform', 'Add notes', "cd app && printf 'hello\\nworld\\n' > notes.txt && git add notes.txt && git commit -qm 'add notes' && git log --format=%s -1");
    const done = await finished(first.taskId);
    expect({ status: done.status, failure: done.failure }).toEqual({ status: 'completed', failure: null });
    expect(done.repositories).toEqual([
      {
        name: 'app',
        checkoutMode: 'worktree',
        branch: expect.stringMatching(TASK_BRANCH),
        baseCommit: origin.headCommit,
        headCommit: expect.stringMatching(/^[0-9a-f]{40}$/),
        filesChanged: 1,
        insertions: 2,
        deletions: 0,
        uncommittedFiles: 0,
      },
    ]);
    const [workDirectory] = await workDirectoriesOf(first.taskId);
    const worktree = path.join(workDirectory!, 'app');
    expect(git(worktree, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe(done.repositories[0].branch);
    expect(git(worktree, 'log', '--format=%s|%an', '-1')).toBe('add notes|Claude');
    expect(git(worktree, 'rev-parse', 'HEAD')).toBe(done.repositories[0].headCommit);
    expect(await outputOf(first.taskId)).toContain('add notes');
    const work = await until(async () => {
      const messages = ((await api('GET', `/api/tasks/${first.taskId}/messages`)).body?.messages ?? []) as Array<{ type: string; noticeCode: string | null; content: string | null }>;
      return messages.find((entry) => entry.type === 'notice' && entry.noticeCode === 'repository_work');
    }, 'the timeline shows the repository work');
    const reported = done.repositories[0] as { branch: string; headCommit: string };
    expect(work.content).toBe(`app on ${reported.branch}: ${origin.headCommit.slice(0, 12)} → ${reported.headCommit.slice(0, 12)}, 1 files changed, +2 −0, nothing uncommitted`);

    const next = await followUp(first.issueId, 'cat app/notes.txt && git -C app log --format=%s -1 && git -C app rev-parse --abbrev-ref HEAD');
    const continued = await finished(next);
    expect({ status: continued.status, failure: continued.failure }).toEqual({ status: 'completed', failure: null });
    expect(await workDirectoriesOf(next)).toEqual([workDirectory]);
    const output = await outputOf(next);
    expect(output).toContain('hello');
    expect(output).toContain('add notes');
    expect(output).toContain(done.repositories[0].branch);
    expect(continued.repositories).toMatchObject([{ branch: done.repositories[0].branch, headCommit: done.repositories[0].headCommit, baseCommit: origin.headCommit, filesChanged: 1 }]);
  }, 240_000);

  it('an issue of no project is offered the workspace\'s repositories: `yard repo checkout` puts one in its work dir', async () => {
    const created = await api('POST', '/api/issues', {
      title: 'No project',
      // Short output: the mock quotes only the start of a long tool output in its answer.
      description: '[[scenario:tool-command yard repo list | cut -f1,3 && yard repo checkout app | cut -f2 && git -C app log --format=%s -1]]',
      assigneeAgentId: agentId,
    });
    expect(created.status).toBe(201);
    const taskId = created.body.tasks[0].taskId as string;
    const done = await finished(taskId);
    expect({ status: done.status, failure: done.failure }).toEqual({ status: 'completed', failure: null });
    const output = await outputOf(taskId);
    expect(output).toMatch(/app\tnot checked out/);
    expect(output).toMatch(/switchyard\/issue-[0-9a-f]{8}\/[0-9a-f]{8}/);
    expect(output).toContain('initial commit');
    // Checked out on request, on its own branch, and reported like any other.
    expect(done.repositories).toMatchObject([{ name: 'app', branch: expect.stringMatching(TASK_BRANCH), filesChanged: 0 }]);
  }, 240_000);

  it('two tasks on the same repository at once get their own worktrees and branches, and both complete', async () => {
    const tasks = [await issue('Platform', 'Left', gated('left', 'echo left > left.txt')), await issue('Platform', 'Right', gated('right', 'echo right > right.txt'))];
    for (const { taskId } of tasks) await taskStatus(taskId, 'running');
    const directories = await Promise.all(tasks.map(async ({ taskId }) => (await workDirectoriesOf(taskId))[0]!));
    expect(new Set(directories).size).toBe(2);
    const branches = directories.map((directory) => git(path.join(directory, 'app'), 'rev-parse', '--abbrev-ref', 'HEAD'));
    expect(new Set(branches).size).toBe(2);
    for (const branch of branches) expect(branch).toMatch(TASK_BRANCH);

    await Promise.all([openGate('left'), openGate('right')]);
    const ended = (await Promise.all(tasks.map(({ taskId }) => finished(taskId)))) as Array<{ status: string; repositories: Array<{ branch: string }> }>;
    expect(ended.map((task) => task.status)).toEqual(['completed', 'completed']);
    expect(ended.map((task) => task.repositories[0]!.branch)).toEqual(branches);
  }, 240_000);

  it('local_directory: a second task on the same path waits in waiting_local_directory and runs when the first ends', async () => {
    const site = path.join(scratch, 'site');
    await mkdir(site, { recursive: true });
    execFileSync('git', ['init', '-q', '-b', 'main', site]);
    await project('Site', [{ name: 'site', checkoutMode: 'local_directory', localPath: site }]);

    const first = await issue('Site', 'First in the folder', gated('site', 'echo first >> site/log.txt'));
    await taskStatus(first.taskId, 'running');
    const second = await issue('Site', 'Second in the folder', 'echo second >> site/log.txt');
    await taskStatus(second.taskId, 'waiting_local_directory');
    expect((await api('GET', `/api/tasks/${second.taskId}`)).body.status).toBe('waiting_local_directory');

    await openGate('site');
    expect((await finished(first.taskId)).status).toBe('completed');
    const secondDone = await finished(second.taskId);
    expect(secondDone.status).toBe('completed');
    // In place, one after the other: the folder holds both lines, in order.
    expect(readFileSync(path.join(site, 'log.txt'), 'utf8')).toBe('first\nsecond\n');
    expect(secondDone.repositories).toMatchObject([{ name: 'site', checkoutMode: 'local_directory', branch: 'main', uncommittedFiles: 1 }]);
  }, 240_000);

  it('the work-directory GC removes an old unused worktree, keeps one in use, and a later follow-up starts fresh saying why', async () => {
    const old = await issue('Platform', 'Old work', 'echo old > app/old.txt');
    expect((await finished(old.taskId)).status).toBe('completed');
    const busy = await issue('Platform', 'Busy work', gated('busy', 'echo busy'));
    await taskStatus(busy.taskId, 'running');
    const [oldDirectory] = await workDirectoriesOf(old.taskId);
    const [busyDirectory] = await workDirectoriesOf(busy.taskId);
    // As if a day had passed since both were last used: their markers say so.
    for (const directory of [oldDirectory!, busyDirectory!]) ageMarker(directory, 24 * 60 * 60_000);

    await until(() => Promise.resolve(existsSync(oldDirectory!) ? undefined : true), 'the GC removes the old work dir', 60_000);
    expect(existsSync(path.join(busyDirectory!, 'app', '.git'))).toBe(true);
    // The worktree went with git: the cache no longer lists it.
    const cache = readFileSync(path.join(busyDirectory!, 'app', '.git'), 'utf8').replace(/^gitdir: (.*)\/worktrees\/.*\n?$/s, '$1');
    expect(git(cache, 'worktree', 'list')).not.toContain(oldDirectory!);

    const next = await followUp(old.issueId, 'ls app');
    expect((await finished(next)).status).toBe('completed');
    const [nextDirectory] = await workDirectoriesOf(next);
    expect(nextDirectory).not.toBe(oldDirectory);
    // The timeline (projected by transcript) shows why: a notice naming the GC's removal.
    const notice = await until(async () => {
      const messages = ((await api('GET', `/api/tasks/${next}/messages`)).body?.messages ?? []) as Array<{ type: string; noticeCode: string | null; content: string | null }>;
      return messages.find((entry) => entry.type === 'notice' && entry.noticeCode === 'resume_skipped');
    }, 'the follow-up says why it starts fresh');
    expect(notice.content).toMatch(/prior_collected: the prior work directory was removed by the work-directory GC/);

    await openGate('busy');
    expect((await finished(busy.taskId)).status).toBe('completed');
  }, 240_000);

  describe('failures end the task with their reason, naming the repository', () => {
    it.each([
      ['an unreachable repository', 'Unreachable', () => ({ name: 'gone', url: `file://${path.join(scratch, 'no-such.git')}` }), 'repo_unavailable', /gone/],
      ['a refused credential', 'Refused', () => ({ name: 'private', url: `${gitServer.url}/private.git`, credential: { username: GIT_USER, secretName: 'git-token' } }), 'repo_auth_failed', /private/],
      ['a local path that does not exist', 'Nowhere', () => ({ name: 'nowhere', checkoutMode: 'local_directory', localPath: path.join(scratch, 'no-such-folder') }), 'local_directory_unavailable', /nowhere/],
    ])('%s: %s', async (_case, projectName, repository, reason, named) => {
      if (reason === 'repo_auth_failed') expect((await api('POST', '/api/secrets', { name: 'git-token', value: GIT_TOKEN })).status).toBe(201);
      await project(projectName, [repository()]);
      const { taskId } = await issue(projectName, `Fails: ${reason}`, 'echo never');
      const task = await finished(taskId);
      expect(task.status).toBe('failed');
      expect(task.failure).toEqual({ reason, message: expect.stringMatching(named) });
      expect(task.failure.message).not.toMatch(/\n\s+at /);
      expect(JSON.stringify(task)).not.toContain(GIT_TOKEN);
    }, 240_000);

    it('a branch conflict: two tasks whose template names the same branch', async () => {
      await project('Pinned', [{ name: 'pinned', url: origin.url, branchTemplate: 'agents/shared-branch' }]);
      const holder = await issue('Pinned', 'Holds the branch', gated('pinned', 'echo holding'));
      await taskStatus(holder.taskId, 'running');
      const { taskId } = await issue('Pinned', 'Wants the same branch', 'echo never');
      const task = await finished(taskId);
      expect(task.failure).toEqual({ reason: 'repo_branch_conflict', message: expect.stringMatching(/pinned/) });
      await openGate('pinned');
      expect((await finished(holder.taskId)).status).toBe('completed');
    }, 240_000);

    it('no credential value in any task event or any log line of the system', async () => {
      const events = [...(await readStream(observer, STREAM_CATALOG.TASK_EVENTS.name))].map((message) => message.text).join('\n');
      expect(events).toContain('private');
      expect(events).not.toContain(GIT_TOKEN);
      const logs = readdirSync(logDirectory).map((file) => readFileSync(path.join(logDirectory, file), 'utf8'));
      // The daemon's log is among them and names the checkouts it made.
      expect(logs.some((log) => log.includes('repository_checked_out'))).toBe(true);
      for (const log of logs) expect(log).not.toContain(GIT_TOKEN);
    });
  });
});

/** Moves a work dir's marker `lastUsedAt` back by `ms`, as if that long had passed. */
function ageMarker(directory: string, ms: number): void {
  const file = path.join(directory, '.switchyard', 'workdir.json');
  const marker = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, `${JSON.stringify({ ...marker, lastUsedAt: new Date(Date.now() - ms).toISOString() }, null, 2)}\n`);
}
