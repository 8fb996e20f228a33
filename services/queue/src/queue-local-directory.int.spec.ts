import { subjects, type RepositoryWorkResult } from '@switchyard/contracts';
import { requestReply } from '@switchyard/messaging';
import { collectNotices } from '@switchyard/messaging/testing';
import { TEST_SEALING_KEY, startServiceForTest, uniqueNamespace, type ServiceUnderTest } from '@switchyard/testing';
import { queueApp } from './queue.app';
import { QueueTestClient, enqueuePayload } from './queue-test-client.spec-helper';

const DAEMON = 'daemon-local-dir';
const LOCAL_PATH = '/home/ada/code/switchyard';
const ADA = { kind: 'user', id: 'user-ada' } as const;

const WORKTREE_RESULT: RepositoryWorkResult = {
  name: 'switchyard',
  checkoutMode: 'worktree',
  branch: 'switchyard/quick-create/0197a5c3',
  baseCommit: 'a'.repeat(40),
  headCommit: 'b'.repeat(40),
  filesChanged: 2,
  insertions: 12,
  deletions: 3,
  uncommittedFiles: 1,
};

interface HeldAttempt {
  readonly taskId: string;
  readonly attempt: number;
  readonly leaseToken: string;
  readonly startBy: string;
}

describe('queue: waiting for a local directory, prepare renewals and work results (real NATS + Postgres)', () => {
  let queue: ServiceUnderTest;
  let client: QueueTestClient;

  beforeAll(async () => {
    queue = await startServiceForTest(queueApp, { database: true });
    client = await QueueTestClient.connect(queue);
  });
  afterAll(async () => {
    await client?.close();
    await queue?.stop();
  });

  /** A claimed, unstarted task on a runtime of its own. */
  async function claimedTask(overrides: Parameters<typeof enqueuePayload>[0] = {}): Promise<HeldAttempt> {
    const runtimeId = `${DAEMON}-${uniqueNamespace('runtime')}`;
    await client.heartbeat(runtimeId, DAEMON);
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent'), ...overrides }));
    const { tasks } = await client.expectOk('task.claim', { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey });
    expect(tasks.map((task) => task.taskId)).toEqual([taskId]);
    const [task] = tasks;
    return { taskId, attempt: task!.attempt, leaseToken: task!.leaseToken, startBy: task!.startBy };
  }

  const awaitPayload = (held: HeldAttempt, heldByTaskId: string | null = 'task-holding-the-path') => ({
    taskId: held.taskId,
    attempt: held.attempt,
    daemonId: DAEMON,
    leaseToken: held.leaseToken,
    localPath: LOCAL_PATH,
    heldByTaskId,
  });
  const lease = (held: HeldAttempt) => ({ taskId: held.taskId, attempt: held.attempt, daemonId: DAEMON, leaseToken: held.leaseToken });

  async function row(taskId: string): Promise<{ status: string; start_by: Date | null; repositories: unknown; failure_reason: string | null }> {
    const [found] = await client.query<{ status: string; start_by: Date | null; repositories: unknown; failure_reason: string | null }>(
      'select status, start_by, repositories, failure_reason from agent_task_queue where task_id = $1',
      [taskId],
    );
    if (!found) throw new Error(`no row for ${taskId}`);
    return found;
  }

  async function storedPayload(taskId: string, type: string): Promise<Record<string, unknown>> {
    const [found] = await client.query<{ payload: Record<string, unknown> }>(
      `select payload->'payload' as payload from outbox_event where aggregate_id = $1 and type = $2 order by version desc limit 1`,
      [taskId, type],
    );
    if (!found) throw new Error(`no ${type} of ${taskId}`);
    return found.payload;
  }

  it('waits for a busy local directory, renews while waiting, then runs and reports what it left', async () => {
    const held = await claimedTask();

    const awaited = await client.expectOk('task.await_local_directory', awaitPayload(held));
    expect(awaited.cancelRequested).toBe(false);
    expect(Date.parse(awaited.leaseExpiresAt)).toBeGreaterThanOrEqual(Date.parse(held.startBy));
    expect((await row(held.taskId)).status).toBe('waiting_local_directory');
    // The daemon repeating its report (a lost reply, a second look at the same holder) changes nothing.
    await expect(client.send('task.await_local_directory', awaitPayload(held))).resolves.toMatchObject({ ok: true, alreadyApplied: true });

    const renewed = await client.expectOk('task.renew', lease(held));
    expect(renewed.cancelRequested).toBe(false);
    expect((await row(held.taskId)).start_by?.toISOString()).toBe(renewed.leaseExpiresAt);

    await client.expectOk('task.start', { ...lease(held), workDir: '/w/task', resumedSessionId: null });
    const completed = await client.expectOk('task.complete', { ...lease(held), sessionId: null, output: 'done', durationMs: 7, usage: [], repositories: [WORKTREE_RESULT] });
    expect(completed).toEqual({ taskId: held.taskId, state: 'completed' });

    expect(await client.storedEventTypes(held.taskId)).toEqual([
      'task.enqueued',
      'task.claimed',
      'task.local_directory_awaited',
      'task.start_deadline_extended',
      'task.started',
      'task.completed',
    ]);
    expect(await storedPayload(held.taskId, 'task.local_directory_awaited')).toMatchObject({ localPath: LOCAL_PATH, heldByTaskId: 'task-holding-the-path' });
    expect(await storedPayload(held.taskId, 'task.completed')).toMatchObject({ repositories: [WORKTREE_RESULT] });
    expect(await row(held.taskId)).toMatchObject({ status: 'completed', start_by: null, repositories: [WORKTREE_RESULT] });
  });

  it('pushes the start deadline of a preparing (dispatched) attempt out on each renewal', async () => {
    const held = await claimedTask();
    const renewed = await client.expectOk('task.renew', lease(held));
    expect(Date.parse(renewed.leaseExpiresAt)).toBeGreaterThanOrEqual(Date.parse(held.startBy));
    expect(await row(held.taskId)).toMatchObject({ status: 'dispatched', start_by: new Date(renewed.leaseExpiresAt) });
  });

  it('refuses an await without the attempt’s lease token, changing nothing', async () => {
    const held = await claimedTask();
    const forged = await client.send('task.await_local_directory', { ...awaitPayload(held), leaseToken: 'guessed-token' }, uniqueNamespace('forged-await'));
    expect(forged).toMatchObject({ ok: false, error: { code: 'sender_mismatch' } });
    expect(await client.storedEventTypes(held.taskId)).toEqual(['task.enqueued', 'task.claimed']);
    expect((await row(held.taskId)).status).toBe('dispatched');
  });

  it('keeps the (agent, issue) slot of a waiting task: the next task of that issue stays queued', async () => {
    const runtimeId = `${DAEMON}-${uniqueNamespace('runtime')}`;
    const agentId = uniqueNamespace('agent');
    const source = { kind: 'issue', issueId: uniqueNamespace('issue'), trigger: 'assignment', commentId: null } as const;
    await client.heartbeat(runtimeId, DAEMON);
    const first = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId, source }));
    const second = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId, source }));
    const claim = () => client.expectOk('task.claim', { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 2, sealingKey: TEST_SEALING_KEY.publicKey });
    const { tasks } = await claim();
    expect(tasks.map((task) => task.taskId)).toEqual([first.taskId]);
    const [task] = tasks;
    await client.expectOk('task.await_local_directory', awaitPayload({ taskId: first.taskId, attempt: 1, leaseToken: task!.leaseToken, startBy: task!.startBy }));

    expect((await claim()).tasks).toEqual([]);
    expect((await row(second.taskId)).status).toBe('queued');
  });

  it('tells the daemon of a waiting task to stop on cancel, and ends it cancelled on its hand-back', async () => {
    const held = await claimedTask();
    await client.expectOk('task.await_local_directory', awaitPayload(held));
    const notices = await collectNotices(client.messaging, subjects.cancelNotice(DAEMON, held.taskId));

    await expect(client.expectOk('task.cancel', { taskId: held.taskId, requestedBy: ADA, reason: 'not needed' })).resolves.toEqual({
      taskId: held.taskId,
      state: 'waiting_local_directory',
    });
    expect(await notices.waitFor(1, { timeoutMs: 5_000 })).toHaveLength(1);
    await expect(client.expectOk('task.renew', lease(held))).resolves.toMatchObject({ cancelRequested: true });

    await client.expectOk('task.requeue', { taskId: held.taskId, attempt: 1, daemonId: DAEMON, reason: 'cancelled_by_shutdown', message: 'stopped while waiting' });
    expect((await row(held.taskId)).status).toBe('cancelled');
  });

  it('fails a waiting task with the daemon’s reason: a bad local path is final, an unreachable remote is retried', async () => {
    const badPath = await claimedTask();
    await client.expectOk('task.await_local_directory', awaitPayload(badPath, null));
    const final = await client.expectOk('task.fail', {
      ...lease(badPath),
      reason: 'local_directory_unavailable',
      message: `${LOCAL_PATH} is not a directory`,
      sessionId: null,
      detail: null,
      durationMs: null,
      repositories: [],
    });
    expect(final).toEqual({ taskId: badPath.taskId, state: 'failed', willRetry: false });
    expect(await row(badPath.taskId)).toMatchObject({ status: 'failed', failure_reason: 'local_directory_unavailable', repositories: [] });

    const unreachable = await claimedTask();
    const retried = await client.expectOk('task.fail', {
      ...lease(unreachable),
      reason: 'repo_unavailable',
      message: 'could not fetch origin',
      sessionId: null,
      detail: null,
      durationMs: null,
      repositories: [WORKTREE_RESULT],
    });
    expect(retried).toEqual({ taskId: unreachable.taskId, state: 'failed', willRetry: true });
    expect(await storedPayload(unreachable.taskId, 'task.failed')).toMatchObject({ reason: 'repo_unavailable', repositories: [WORKTREE_RESULT] });
  });

  it('gives up a waiting attempt of a restarted daemon (runtime_recovery)', async () => {
    const daemonId = uniqueNamespace('daemon-restarted');
    const runtimeId = `${daemonId}-${uniqueNamespace('runtime')}`;
    await client.heartbeat(runtimeId, daemonId);
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent') }));
    const { tasks } = await client.expectOk('task.claim', { daemonId, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey });
    await client.expectOk('task.await_local_directory', { taskId, attempt: 1, daemonId, leaseToken: tasks[0]!.leaseToken, localPath: LOCAL_PATH, heldByTaskId: null });

    const released = await client.expectOk('task.release_orphans', { daemonId, bootedAt: new Date().toISOString() });

    expect(released.tasks).toEqual([{ taskId, attempt: 1, runtimeId, state: 'failed', willRetry: true }]);
    expect((await row(taskId)).failure_reason).toBe('runtime_recovery');
  });

  it('accepts a complete from a daemon that reports no repositories, with none', async () => {
    const held = await claimedTask();
    await client.expectOk('task.start', { ...lease(held), workDir: '/w/old', resumedSessionId: null });
    // Built by hand: `createCommand` would fill the default in before it left.
    const requestId = uniqueNamespace('older-daemon-complete');
    const envelope = {
      requestId,
      command: 'task.complete',
      schemaVersion: 1,
      correlationId: requestId,
      payload: { ...lease(held), sessionId: null, output: 'done', durationMs: 1, usage: [] },
    };
    const reply = await requestReply(client.messaging, { subject: subjects.command('task.complete', DAEMON), data: envelope, requestId, timeoutMs: 30_000 });
    expect(reply).toEqual({ ok: true, result: { taskId: held.taskId, state: 'completed' } });
    expect(await storedPayload(held.taskId, 'task.completed')).toMatchObject({ repositories: [] });
  });
});
