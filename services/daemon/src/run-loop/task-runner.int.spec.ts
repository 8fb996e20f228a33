import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAgentSession, type AgentSession, type Backend } from '@switchyard/agent-adapters';
import { DEFAULT_BRANCH_TEMPLATE, SESSION_COMMAND_CATALOG, STREAM_CATALOG, subjects, type AgentMessage, type RepositorySnapshot, type CommandName, type ResumeDecision, type SessionResolveCommand } from '@switchyard/contracts';
import { catalogStreamDefinitions, provisionStreams, publishNotice, serveRequests, type MessagingConnection, type RequestServer } from '@switchyard/messaging';
import { deleteNamespaceStreams, readStream } from '@switchyard/messaging/testing';
import { createJsonLogger } from '@switchyard/service-kit';
import { createOriginRepository, uniqueNamespace, connectTestMessaging } from '@switchyard/testing';
import { sampleClaimedTask } from '../exec-env/exec-env.spec-helper';
import { TaskMessageOutbox } from '../outbox/task-message.outbox';
import type { DetectedRuntime } from '../runtimes/runtime-detector';
import { BUILT_IN_RUNTIME_IDENTITIES } from '../runtimes/runtime-identities';
import { DaemonNoticesRouter } from './daemon-notices.router';
import { QueueClient, type DaemonQueueCommandName } from './queue.client';
import { runClaimedTask, type TaskRunnerDependencies } from './task-runner';
import { LocalDirectoryLocks, openRepositoryCache } from '../repositories';
import type { RepositoryServices } from './task-repositories';

const logger = createJsonLogger({ service: 'task-runner-test', level: 'fatal' });
const DAEMON_ID = 'daemon-task-runner-test';
/** The daemon's enrolled workspace, the one `sampleClaimedTask` names. */
const WORKSPACE_ID = 'workspace-1';
/** Far beyond the test: a run left to the lease would time the test out. */
const RENEW_EVERY_MS = 10 * 60_000;
/** A CLI that is done at once. */
const DONE_SCRIPT = "process.stdout.write(JSON.stringify({ done: true }) + '\\n');";
/** A CLI that says its pid, then works on silently until it is killed. */
const CLI_SCRIPT = "process.stdout.write(JSON.stringify({ pid: process.pid }) + '\\n'); setInterval(() => undefined, 1000);";

const claudeCode = BUILT_IN_RUNTIME_IDENTITIES.find((identity) => identity.identity === 'claude-code')!;
const runtime: DetectedRuntime = { runtimeId: 'daemon-task-runner-test-claude-code', identity: claudeCode, executablePath: process.execPath, version: '1.0.0', models: [] };

/** Runs the CLI script through a real agent session; each stdout line becomes a text message. */
function scriptBackend(options: { readonly script: string; readonly alter?: (session: AgentSession) => AgentSession }): Backend {
  return {
    execute: (_prompt, run) => {
      const session = createAgentSession({
        run: { ...run, launchArgs: [] },
        adapterArgs: ['-e', options.script],
        createTranslator: (context) => (event) => {
          context.emit({ type: 'text', text: JSON.stringify(event) });
          if ((event as { done?: boolean }).done) context.reportResult({ status: 'completed', output: 'finished' });
        },
      });
      return Promise.resolve(options.alter ? options.alter(session) : session);
    },
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('task runner', () => {
  let connection: MessagingConnection;
  let directory: string;
  let outbox: TaskMessageOutbox;
  let servers: RequestServer[];
  /** What the stand-in queue was told, command by command. */
  let commands: Array<{ readonly command: CommandName; readonly payload: Record<string, unknown> }>;
  let cancelNotices: DaemonNoticesRouter;
  let repositories: RepositoryServices;

  beforeEach(async () => {
    connection = await connectTestMessaging({ name: 'task-runner-test', namespace: uniqueNamespace() });
    await provisionStreams(connection, catalogStreamDefinitions());
    directory = await mkdtemp(path.join(tmpdir(), 'switchyard-task-runner-'));
    outbox = await TaskMessageOutbox.open({ directory: path.join(directory, 'outbox'), connection, logger });
    repositories = { cache: await openRepositoryCache(path.join(directory, 'repo-cache')), localDirectories: new LocalDirectoryLocks() };
    cancelNotices = new DaemonNoticesRouter({ connection, daemonId: DAEMON_ID, logger, onWorkAvailable: () => undefined });
    cancelNotices.start();
    commands = [];
    // The queue service stands outside this test: a responder that accepts and records its
    // commands and answers as the contracts say (the daemon's client checks every reply).
    const leaseResult = () => ({ leaseExpiresAt: new Date(Date.now() + 60_000).toISOString(), cancelRequested: false });
    const answers: Partial<Record<DaemonQueueCommandName, (taskId: string) => unknown>> = {
      'task.start': leaseResult,
      'task.renew': leaseResult,
      'task.await_local_directory': leaseResult,
      'task.complete': (taskId) => ({ taskId, state: 'completed' }),
      'task.fail': (taskId) => ({ taskId, state: 'failed', willRetry: false }),
    };
    servers = Object.entries(answers).map(([command, answer]) =>
      serveRequests<{ payload: Record<string, unknown> }, unknown>(connection, {
        subject: subjects.command(command as DaemonQueueCommandName, DAEMON_ID),
        queueGroup: 'queue-stand-in',
        handler: (request) => {
          commands.push({ command: command as CommandName, payload: request.payload });
          return Promise.resolve(answer(String(request.payload['taskId'])));
        },
      }),
    );
  });

  afterEach(async () => {
    cancelNotices.stop();
    await Promise.all(servers.map((server) => server.stop()));
    await outbox.stop();
    await deleteNamespaceStreams(connection);
    await connection.close();
    await rm(directory, { recursive: true, force: true });
  });

  const dependencies = (backend: Backend): TaskRunnerDependencies => ({
    daemonId: DAEMON_ID,
    workspaceId: WORKSPACE_ID,
    connection,
    queue: new QueueClient(connection, DAEMON_ID),
    cancelNotices,
    outbox,
    logger,
    workspacesRoot: path.join(directory, 'workspaces'),
    ownerId: 'owner-task-runner-test',
    homeFor: () => path.join(directory, 'home'),
    runtimeEnvironmentFor: () => Promise.resolve({}),
    backendFor: () => backend,
    renewEveryMs: RENEW_EVERY_MS,
    sessionResolveTimeoutMs: 2_000,
    timeouts: { idleMs: 60_000, toolBudgetMs: 60_000, totalMs: 120_000 },
    shutdown: new AbortController().signal,
    repositories,
  });

  const timelineOf = async (taskId: string): Promise<AgentMessage[]> => {
    await outbox.drained(taskId);
    return (await readStream(connection, STREAM_CATALOG.TASK_EVENTS.name))
      .filter((message) => message.subject === subjects.taskEvent({ type: 'task.message', taskId, publisher: DAEMON_ID }))
      .map((message) => (JSON.parse(message.text) as { payload: { message: AgentMessage } }).payload.message);
  };

  it('given a message that cannot be published, when the task runs, then its CLI is killed and the task fails as internal at once', async () => {
    const task = sampleClaimedTask({ runtimeId: runtime.runtimeId });
    let cliPid: number | undefined;
    const backend = scriptBackend({
      script: CLI_SCRIPT,
      alter: (session) => ({
        ...session,
        messages: (async function* () {
          for await (const message of session.messages) {
            if (message.type === 'text') cliPid ??= (JSON.parse(message.text) as { pid: number }).pid;
            // An adapter bug past every guard: the message breaks the contract.
            yield { ...message, text: 42 } as unknown as AgentMessage;
          }
        })(),
      }),
    });

    const startedAt = performance.now();
    await runClaimedTask(task, runtime, dependencies(backend));

    expect(performance.now() - startedAt).toBeLessThan(RENEW_EVERY_MS);
    expect(cliPid).toBeDefined();
    expect(isAlive(cliPid!)).toBe(false);
    expect(commands.map((entry) => entry.command)).toEqual(['task.start', 'task.fail']);
    // Whichever step refuses the message first (the sanitizer, the event's schema) names the reason.
    expect(commands[1]!.payload).toMatchObject({ reason: 'internal', message: expect.stringMatching(/^the daemon could not follow the run, so it stopped the CLI: \S/) });
    expect(await timelineOf(task.taskId)).toEqual([{ type: 'error', code: 'run_follow_failed', message: expect.stringContaining('could not follow the run') }]);
  });

  it('given a task of another workspace, when it is claimed, then it fails as internal and its CLI never starts', async () => {
    const task = sampleClaimedTask({ runtimeId: runtime.runtimeId, taskId: '0190f3a2-7c1e-7000-8000-00000000a00f', workspaceId: 'workspace-other' });
    let executed = false;
    const backend = scriptBackend({ script: DONE_SCRIPT });
    await runClaimedTask(task, runtime, dependencies({ execute: (prompt, run) => ((executed = true), backend.execute(prompt, run)) }));

    expect(executed).toBe(false);
    expect(commands.map((entry) => entry.command)).toEqual(['task.fail']);
    expect(commands[0]!.payload).toMatchObject({
      taskId: task.taskId,
      daemonId: DAEMON_ID,
      reason: 'internal',
      message: 'the daemon refused the task: it belongs to workspace workspace-other, and this daemon serves workspace workspace-1',
      sessionId: null,
    });
    expect(await timelineOf(task.taskId)).toEqual([]);
  });

  it('given a healthy run, when the task runs, then its messages reach the timeline and it completes', async () => {
    const task = sampleClaimedTask({ runtimeId: runtime.runtimeId, taskId: '0190f3a2-7c1e-7000-8000-00000000a002' });
    await runClaimedTask(task, runtime, dependencies(scriptBackend({ script: DONE_SCRIPT })));

    expect(commands.map((entry) => entry.command)).toEqual(['task.start', 'task.complete']);
    expect(commands[1]!.payload).toMatchObject({ output: 'finished' });
    // Each report proves the attempt with the lease token its claim gave.
    expect(commands.map((entry) => entry.payload['leaseToken'])).toEqual([task.leaseToken, task.leaseToken]);
    expect(await timelineOf(task.taskId)).toEqual([{ type: 'text', text: '{"done":true}' }]);
  });

  it("given an agent with a model, a thinking level and extra args, when its task runs, then the backend is asked for all three", async () => {
    const agent = { ...sampleClaimedTask().agent, model: 'claude-opus-4-6', thinkingLevel: 'high', extraArgs: ['--verbose-tools'] };
    const task = sampleClaimedTask({ runtimeId: runtime.runtimeId, taskId: '0190f3a2-7c1e-7000-8000-00000000a0f1', agent });
    const asked: Array<{ model?: string; thinkingLevel?: string; launchArgs?: readonly string[] }> = [];
    const inner = scriptBackend({ script: DONE_SCRIPT });
    const recording: Backend = {
      execute: (prompt, options) => {
        asked.push({ ...(options.model ? { model: options.model } : {}), ...(options.thinkingLevel ? { thinkingLevel: options.thinkingLevel } : {}), ...(options.launchArgs ? { launchArgs: options.launchArgs } : {}) });
        return inner.execute(prompt, options);
      },
    };

    await runClaimedTask(task, runtime, dependencies(recording));

    expect(asked).toEqual([{ model: 'claude-opus-4-6', thinkingLevel: 'high', launchArgs: ['--verbose-tools'] }]);
    expect(commands.map((entry) => entry.command)).toContain('task.complete');
  });

  it('given a running CLI, when the queue tells this daemon the task was cancelled, then the CLI is stopped and the run reported', async () => {
    const task = sampleClaimedTask({ runtimeId: runtime.runtimeId, taskId: '0190f3a2-7c1e-7000-8000-00000000a006' });
    let cliPid: number | undefined;
    const backend = scriptBackend({
      script: CLI_SCRIPT,
      alter: (session) => ({
        ...session,
        messages: (async function* () {
          for await (const message of session.messages) {
            if (message.type === 'text' && cliPid === undefined) {
              cliPid = (JSON.parse(message.text) as { pid: number }).pid;
              // Another daemon's notice, then this daemon's: only its own stops the run.
              publishNotice(connection, subjects.cancelNotice('daemon-other', task.taskId));
              publishNotice(connection, subjects.cancelNotice(DAEMON_ID, task.taskId));
            }
            yield message;
          }
        })(),
      }),
    });

    await runClaimedTask(task, runtime, dependencies(backend));

    expect(isAlive(cliPid!)).toBe(false);
    expect(commands.map((entry) => entry.command)).toEqual(['task.start', 'task.fail']);
    // The queue has the cancel pending: whatever the report says, it ends the attempt as cancelled.
    expect(commands[1]!.payload).toMatchObject({ taskId: task.taskId, daemonId: DAEMON_ID, message: 'the run was cancelled' });
  });

  /** Session-resume stands outside this test too: a responder answering `decision` to every ask, recording them. */
  function serveResolve(decision: ResumeDecision): SessionResolveCommand[] {
    const asked: SessionResolveCommand[] = [];
    servers.push(
      serveRequests(connection, {
        subject: subjects.command('session.resolve', DAEMON_ID),
        queueGroup: 'session-resume-stand-in',
        requestSchema: SESSION_COMMAND_CATALOG['session.resolve'].request,
        handler: (command: SessionResolveCommand) => {
          asked.push(command);
          return Promise.resolve(decision);
        },
      }),
    );
    return asked;
  }

  /** Where Claude Code keeps a session of a work dir, under the runtime's HOME: the CLI's own layout. */
  const claudeSessionFile = (workDirectory: string, sessionId: string): string =>
    path.join(directory, 'home', '.claude', 'projects', workDirectory.replace(/[^A-Za-z0-9]/g, '-'), `${sessionId}.jsonl`);

  /** The backend, recording the session each CLI start was asked to resume. */
  const recordingResumes = (backend: Backend, resumes: Array<string | undefined>): Backend => ({
    execute: (prompt, options) => {
      resumes.push(options.resumeSessionId);
      return backend.execute(prompt, options);
    },
  });

  const startOf = (taskId: string): Record<string, unknown> | undefined =>
    commands.find((entry) => entry.command === 'task.start' && entry.payload['taskId'] === taskId)?.payload;

  /** A first task of the conversation, run with no session-resume listening (it starts fresh); its work dir. */
  async function runFirstTask(): Promise<string> {
    const first = sampleClaimedTask({ runtimeId: runtime.runtimeId, taskId: '0190f3a2-7c1e-7000-8000-00000000a003' });
    await runClaimedTask(first, runtime, dependencies(scriptBackend({ script: DONE_SCRIPT })));
    expect(startOf(first.taskId)).toMatchObject({ resumedSessionId: null });
    return String(startOf(first.taskId)!['workDir']);
  }

  it('given session-resume offers the previous task\'s session, when the next task of the conversation runs, then it resumes that session in that work dir', async () => {
    const workDirectory = await runFirstTask();
    await mkdir(path.dirname(claudeSessionFile(workDirectory, 'session-prior')), { recursive: true });
    await writeFile(claudeSessionFile(workDirectory, 'session-prior'), '{}\n');
    const asked = serveResolve({ status: 'resume', sessionId: 'session-prior', workDir: workDirectory });
    const next = sampleClaimedTask({ runtimeId: runtime.runtimeId, taskId: '0190f3a2-7c1e-7000-8000-00000000a004' });
    const resumes: Array<string | undefined> = [];

    await runClaimedTask(next, runtime, dependencies(recordingResumes(scriptBackend({ script: DONE_SCRIPT }), resumes)));

    expect(asked.map((command) => ({ correlationId: command.correlationId, payload: command.payload }))).toEqual([
      { correlationId: next.taskId, payload: { taskId: next.taskId, agentId: next.agentId, runtimeId: next.runtimeId, source: next.source, forceFreshSession: false } },
    ]);
    expect(startOf(next.taskId)).toMatchObject({ workDir: workDirectory, resumedSessionId: 'session-prior' });
    expect(resumes).toEqual(['session-prior']);
    expect(await timelineOf(next.taskId)).toEqual([{ type: 'text', text: '{"done":true}' }]);
  });

  it('given an offered session whose store is gone, when the task runs, then it starts fresh in the reused work dir, says so and retires the session', async () => {
    const workDirectory = await runFirstTask();
    serveResolve({ status: 'resume', sessionId: 'session-gone', workDir: workDirectory });
    const next = sampleClaimedTask({ runtimeId: runtime.runtimeId, taskId: '0190f3a2-7c1e-7000-8000-00000000a005' });
    const resumes: Array<string | undefined> = [];

    await runClaimedTask(next, runtime, dependencies(recordingResumes(scriptBackend({ script: DONE_SCRIPT }), resumes)));

    expect(startOf(next.taskId)).toMatchObject({ workDir: workDirectory, resumedSessionId: null });
    expect(resumes).toEqual([undefined]);
    const missing = `no claude-code session file at ${claudeSessionFile(workDirectory, 'session-gone')}`;
    expect(await timelineOf(next.taskId)).toEqual([
      { type: 'status', state: 'resume_skipped', progress: `session_store_missing: ${missing}; starting fresh` },
      { type: 'notice', code: 'resume_skipped', text: `The prior session was not resumed (session_store_missing: ${missing}); this run starts a fresh session.` },
      { type: 'text', text: '{"done":true}' },
    ]);
    const retired = (await readStream(connection, STREAM_CATALOG.SESSION_EVENTS.name)).map((message) => JSON.parse(message.text) as { type: string; payload: unknown });
    expect(retired).toEqual([
      expect.objectContaining({ type: 'session.retired', payload: { sessionId: 'session-gone', taskId: next.taskId, reason: 'session_store_missing', message: missing } }),
    ]);
  });

  describe('MCP servers', () => {
    const NOTES_SERVER = { servers: { notes: { command: 'node', args: ['notes-server.js'] } } };
    /** A backend that records the options each run was started with. */
    const recordingOptions = (backend: Backend, seen: Array<Parameters<Backend['execute']>[1]>): Backend => ({
      execute: (prompt, run) => {
        seen.push(run);
        return backend.execute(prompt, run);
      },
    });

    it('given an agent with a server, when it runs on Claude Code, then the backend is handed the config file the exec env wrote', async () => {
      const task = sampleClaimedTask({ runtimeId: runtime.runtimeId, taskId: '0190f3a2-7c1e-7000-8000-00000000a0c1' });
      const withServer = { ...task, agent: { ...task.agent, mcpConfig: NOTES_SERVER } };
      const seen: Array<Parameters<Backend['execute']>[1]> = [];

      await runClaimedTask(withServer, runtime, dependencies(recordingOptions(scriptBackend({ script: DONE_SCRIPT }), seen)));

      expect(seen).toHaveLength(1);
      expect(seen[0]!.mcp).toEqual({ kind: 'claude-config-file', path: path.join(seen[0]!.cwd, '.switchyard/mcp/claude-mcp.json'), serverNames: ['notes'] });
      expect(await timelineOf(task.taskId)).toEqual([{ type: 'text', text: '{"done":true}' }]);
    });

    it('given a CLI without MCP (Pi), when the task runs, then the timeline names the servers it did not get', async () => {
      const pi = BUILT_IN_RUNTIME_IDENTITIES.find((identity) => identity.identity === 'pi')!;
      const piRuntime: DetectedRuntime = { runtimeId: 'daemon-task-runner-test-pi', identity: pi, executablePath: process.execPath, version: '1.0.0', models: [] };
      const task = sampleClaimedTask({ runtimeId: piRuntime.runtimeId, taskId: '0190f3a2-7c1e-7000-8000-00000000a0c2' });
      const withServer = { ...task, agent: { ...task.agent, mcpConfig: NOTES_SERVER } };
      const seen: Array<Parameters<Backend['execute']>[1]> = [];

      await runClaimedTask(withServer, piRuntime, dependencies(recordingOptions(scriptBackend({ script: DONE_SCRIPT }), seen)));

      expect(seen[0]!.mcp).toEqual({ kind: 'unsupported', undeliveredServerNames: ['notes'] });
      expect(await timelineOf(task.taskId)).toEqual([
        { type: 'log', level: 'warn', text: 'MCP servers not delivered: this CLI takes no MCP servers from Switchyard: notes' },
        { type: 'text', text: '{"done":true}' },
      ]);
    });
  });

  describe('repositories', () => {
    /** A CLI that commits one new file in `app/`, then is done. */
    const COMMIT_SCRIPT = [
      "const { execFileSync } = require('node:child_process');",
      "require('node:fs').writeFileSync('app/notes.txt', 'one\\ntwo\\n');",
      "execFileSync('git', ['-C', 'app', 'add', 'notes.txt']);",
      "execFileSync('git', ['-C', 'app', 'commit', '-q', '-m', 'add notes']);",
      "process.stdout.write(JSON.stringify({ done: true }) + '\\n');",
    ].join(' ');

    const worktreeRepository = (name: string, url: string, checkoutAtStart: boolean): RepositorySnapshot => ({
      name,
      checkoutMode: 'worktree',
      url,
      localPath: null,
      defaultBranch: 'main',
      branchTemplate: DEFAULT_BRANCH_TEMPLATE,
      credential: null,
      checkoutAtStart,
    });

    it("given an issue of a project, when its task runs, then the project's repository is a worktree before the CLI starts and its work is reported with the outcome", async () => {
      const origin = await createOriginRepository({ directory: path.join(directory, 'origins', 'app.git'), files: { 'README.md': 'hello\n' } });
      const base = sampleClaimedTask({ runtimeId: runtime.runtimeId, taskId: '0190f3a2-7c1e-7000-8000-00000000b001' });
      const task = { ...base, agent: { ...base.agent, repositories: [worktreeRepository('app', origin.url, true), worktreeRepository('docs', origin.url, false)] } };
      const seen: Array<Parameters<Backend['execute']>[1]> = [];
      const inner = scriptBackend({ script: COMMIT_SCRIPT });

      await runClaimedTask(task, runtime, dependencies({ execute: (prompt, run) => (seen.push(run), inner.execute(prompt, run)) }));

      expect(commands.map((entry) => entry.command)).toEqual(['task.start', 'task.complete']);
      const [work] = commands[1]!.payload['repositories'] as Array<Record<string, unknown>>;
      expect(commands[1]!.payload['repositories']).toHaveLength(1);
      expect(work).toEqual({
        name: 'app',
        checkoutMode: 'worktree',
        // `{source}` is the issue id's last hex digits (`issue-1` has `e1`), `{task}` the task id's last 8.
        branch: 'switchyard/issue-e1/0000b001',
        baseCommit: origin.headCommit,
        headCommit: expect.stringMatching(/^[0-9a-f]{40}$/),
        filesChanged: 1,
        insertions: 2,
        deletions: 0,
        uncommittedFiles: 0,
      });
      // The CLI ran in the work dir, the worktree inside it on the task branch; the other repository is only offered.
      const workDirectory = seen[0]!.cwd;
      const git = (...args: string[]): string => execFileSync('git', ['-C', path.join(workDirectory, 'app'), ...args], { encoding: 'utf8' }).trim();
      expect(git('rev-parse', '--abbrev-ref', 'HEAD')).toBe('switchyard/issue-e1/0000b001');
      expect(git('rev-parse', 'HEAD')).toBe(work!['headCommit']);
      expect(git('rev-parse', 'HEAD~1')).toBe(origin.headCommit);
      expect(existsSync(path.join(workDirectory, 'docs'))).toBe(false);
      const brief = readFileSync(path.join(workDirectory, 'CLAUDE.md'), 'utf8');
      expect(brief).toContain('`app` in `app/`: a git worktree on branch `switchyard/issue-e1/0000b001`');
      expect(brief).toContain('`docs`: not checked out; `yard repo checkout docs`');
      expect(await timelineOf(task.taskId)).toContainEqual({ type: 'notice', code: 'repository_work', text: expect.stringMatching(/^app on switchyard\/issue-e1\/0000b001: .* 1 files changed, \+2 −0, nothing uncommitted$/) });
    });

    it('given two tasks on one local directory, when both run, then the second waits (telling the queue) until the first ends', async () => {
      const local = path.join(directory, 'local-project');
      await mkdir(local, { recursive: true });
      const repository: RepositorySnapshot = { ...worktreeRepository('site', '', true), checkoutMode: 'local_directory', url: null, localPath: local };
      const first = sampleClaimedTask({ runtimeId: runtime.runtimeId, taskId: '0190f3a2-7c1e-7000-8000-00000000b011' });
      const second = sampleClaimedTask({ runtimeId: runtime.runtimeId, taskId: '0190f3a2-7c1e-7000-8000-00000000b012' });
      const withSite = (task: typeof first) => ({ ...task, agent: { ...task.agent, repositories: [repository] } });
      let releaseFirst: () => void = () => undefined;
      const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
      const done = scriptBackend({ script: DONE_SCRIPT });
      const backend: Backend = {
        execute: async (prompt, run) => {
          // The first task works in the folder until the test has seen the second one wait.
          if (run.env['SWITCHYARD_TASK_ID'] === first.taskId) await firstHeld;
          return done.execute(prompt, run);
        },
      };

      const runs = [runClaimedTask(withSite(first), runtime, dependencies(backend))];
      await until(() => commands.some((entry) => entry.command === 'task.start' && entry.payload['taskId'] === first.taskId));
      runs.push(runClaimedTask(withSite(second), runtime, dependencies(backend)));
      await until(() => commands.some((entry) => entry.command === 'task.await_local_directory'));
      expect(commands.filter((entry) => entry.payload['taskId'] === second.taskId).map((entry) => entry.command)).toEqual(['task.await_local_directory']);
      expect(commands.find((entry) => entry.command === 'task.await_local_directory')!.payload).toMatchObject({ taskId: second.taskId, localPath: realpathSync(local), heldByTaskId: first.taskId });
      releaseFirst();
      await Promise.all(runs);

      const order = commands.map((entry) => `${entry.command}:${entry.payload['taskId'] === first.taskId ? 'first' : 'second'}`);
      expect(order.indexOf('task.start:second')).toBeGreaterThan(order.indexOf('task.complete:first'));
      expect(order.filter((entry) => entry.endsWith(':second'))).toEqual(['task.await_local_directory:second', 'task.start:second', 'task.complete:second']);
    });
  });
});

/** Polls a condition every 20 ms (no deadline of its own: the test's timeout bounds it). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}
