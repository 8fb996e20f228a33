import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { STREAM_CATALOG, type RuntimeProfile } from '@switchyard/contracts';
import { readStream } from '@switchyard/messaging/testing';
import { processesWithEnvironment, sampleAgentSnapshot, type ServiceChild } from '@switchyard/testing';
import { startDaemonE2eStack, type DaemonE2eStack } from './daemon-e2e.spec-helper';

const DAEMON_ID = 'daemon-lifecycle';

/**
 * The daemon's own duties around a run, on the real Claude Code CLI against the mock model: a
 * runtime profile launched with its fixed args, the idle watchdog, and a graceful shutdown that
 * ends the in-flight task truthfully and leaves no agent process behind.
 */
describe('daemon lifecycle on the real Claude Code (profiles, watchdog, shutdown)', () => {
  let stack: DaemonE2eStack;
  let daemon: ServiceChild | undefined;
  const profile: RuntimeProfile = {
    profileId: 'claude-marked',
    displayName: 'Claude with a marker',
    protocolFamily: 'claude-stream-json',
    commandName: 'claude',
    fixedArgs: ['--append-system-prompt', 'Profile marker 7f3a'],
  };
  // A family no real CLI here speaks, through a profile: the scripted DSH of the adapter's tests,
  // its scenario (`{}`: a plain run) as the fixed argument.
  const dshProfile: RuntimeProfile = { profileId: 'dsh-scripted', displayName: 'Scripted DSH', protocolFamily: 'dsh-jsonl', commandName: 'fake-dsh', fixedArgs: ['{}'] };
  const FAKE_DSH = path.resolve(__dirname, '../../../libs/agent-adapters/src/dsh-jsonl/__fixtures__/fake-dsh.js');

  const agentClisPath = (...before: string[]): string =>
    [...before, path.resolve(__dirname, '../../../tests/agent-clis/node_modules/.bin'), process.env['PATH'] ?? ''].join(path.delimiter);

  beforeAll(async () => {
    stack = await startDaemonE2eStack();
    const profilesFile = path.join(stack.home, 'runtime-profiles.json');
    await writeFile(profilesFile, JSON.stringify([profile, dshProfile]));
    const bin = path.join(stack.home, 'profile-bin');
    await mkdir(bin, { recursive: true });
    await writeFile(path.join(bin, 'fake-dsh'), `#!/bin/sh\nexec "${process.execPath}" "${FAKE_DSH}" "$@"\n`);
    await chmod(path.join(bin, 'fake-dsh'), 0o755);
    // Idle 3 s: far above the mock's answer time, far below the slow scenario.
    daemon = await stack.startDaemon({
      daemonId: DAEMON_ID,
      env: {
        DAEMON_RUNTIME_PROFILES_FILE: profilesFile,
        DAEMON_IDLE_TIMEOUT_MS: '3000',
        DAEMON_PATH: agentClisPath(bin),
      },
    });
  }, 180_000);

  afterAll(async () => {
    await daemon?.stop();
    await stack?.stop();
  });

  const agentProcessesOf = (taskId: string): number[] => processesWithEnvironment(`SWITCHYARD_TASK_ID=${taskId}`);

  it('registers a runtime profile with its profile id and runs its command with the fixed args first', async () => {
    const registered = (await readStream(stack.connection, STREAM_CATALOG.RUNTIME_EVENTS.name))
      .map((message) => JSON.parse(message.text) as { type: string; payload: { runtimeId: string; profileId: string | null } })
      .filter((event) => event.type === 'runtime.registered');
    expect(registered.map((event) => event.payload)).toContainEqual(expect.objectContaining({ runtimeId: `${DAEMON_ID}-profile-claude-marked`, profileId: 'claude-marked' }));

    const target = path.join(stack.home, 'written-through-a-profile.txt');
    const taskId = await stack.enqueue({ runtimeId: `${DAEMON_ID}-profile-claude-marked`, prompt: `Write it [[scenario:tool-write-file ${target} via profile]]` });

    expect(await stack.waitForTask(taskId, ['completed', 'failed'])).toMatchObject({ status: 'completed' });
    expect(await readFile(target, 'utf8')).toBe('via profile');
    // The fixed args reached the CLI (ahead of the adapter's): the model saw the appended prompt.
    const modelRequests = stack.model.requests().filter((request) => JSON.stringify(request.body ?? null).includes('written-through-a-profile'));
    expect(modelRequests.length).toBeGreaterThan(0);
    expect(modelRequests.every((request) => JSON.stringify(request.body ?? null).includes('Profile marker 7f3a'))).toBe(true);
  }, 180_000);

  it('runs a profile of a frame-tested family (DSH) end to end', async () => {
    const taskId = await stack.enqueue({ runtimeId: `${DAEMON_ID}-profile-dsh-scripted`, agent: sampleAgentSnapshot({ model: 'mock/mock-1' }), prompt: 'List the files' });

    expect(await stack.waitForTask(taskId, ['completed', 'failed'])).toMatchObject({ status: 'completed' });
    const types = (await stack.timeline(taskId)).map((entry) => entry.message.type);
    expect(types).toEqual(expect.arrayContaining(['thinking', 'tool-use', 'tool-result', 'text', 'usage']));
  }, 120_000);

  it('fails the task with the adapter’s reason when it refuses to start (DSH takes provider/model ids only)', async () => {
    const taskId = await stack.enqueue({ runtimeId: `${DAEMON_ID}-profile-dsh-scripted`, agent: sampleAgentSnapshot({ model: 'bare-model' }), prompt: 'List the files', maxAttempts: 1 });

    expect(await stack.waitForTask(taskId, ['completed', 'failed'])).toMatchObject({ status: 'failed', failure_reason: 'agent_error' });
    const timeline = await stack.timeline(taskId);
    expect(timeline.map((entry) => entry.message)).toContainEqual(expect.objectContaining({ type: 'error', code: 'adapter_refused_start', message: expect.stringContaining('bare-model') }));
  }, 120_000);

  it('kills a run that goes quiet past the idle watchdog and fails it as timeout', async () => {
    const taskId = await stack.enqueue({ runtimeId: `${DAEMON_ID}-claude-code`, prompt: 'Think quietly [[scenario:slow 60000]]', maxAttempts: 1 });

    const row = await stack.waitForTask(taskId, ['completed', 'failed'], 60_000);

    expect(row).toMatchObject({ status: 'failed', failure_reason: 'timeout' });
    expect(agentProcessesOf(taskId)).toEqual([]);
    const timeline = await stack.timeline(taskId);
    expect(timeline.map((entry) => entry.seq)).toEqual(timeline.map((_, index) => index));
  }, 120_000);

  it('on SIGTERM, ends the in-flight task as cancelled_by_shutdown, queues its retry and leaves no agent process', async () => {
    // The same daemon again, without the 3 s watchdog: a quiet run must outlive a busy machine's
    // gap between its start and the shutdown, or the watchdog ends it first.
    await daemon?.stop();
    daemon = await stack.startDaemon({ daemonId: DAEMON_ID, env: { DAEMON_PATH: agentClisPath() } });
    const taskId = await stack.enqueue({ runtimeId: `${DAEMON_ID}-claude-code`, prompt: 'Work long [[scenario:slow 60000]]', maxAttempts: 2 });
    await stack.waitForTask(taskId, ['running']);
    await stack.model.waitForRequest((request) => request.outcome === 'pending' && JSON.stringify(request.body).includes('Work long'), 60_000);
    expect(agentProcessesOf(taskId).length).toBeGreaterThan(0);

    await daemon.stop();
    daemon = undefined;

    expect(await stack.waitForTask(taskId, ['completed', 'failed', 'cancelled'], 30_000)).toMatchObject({ status: 'failed', failure_reason: 'cancelled_by_shutdown' });
    expect(agentProcessesOf(taskId)).toEqual([]);
    const retries = await stack.tasks('retry_of_task_id = $1', [taskId]);
    // Waiting out its backoff; nobody claims it with the daemon gone.
    expect(retries).toEqual([expect.objectContaining({ status: 'deferred' })]);
    // What the run said before the shutdown was published: at least the session it started.
    expect((await stack.timeline(taskId)).map((entry) => entry.message.type)).toContain('status');
  }, 180_000);
});
