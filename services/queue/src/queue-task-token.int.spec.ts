import { createHash } from 'node:crypto';
import type { TaskSource } from '@switchyard/contracts';
import { TEST_SEALING_KEY, startServiceForTest, uniqueNamespace, type ServiceUnderTest } from '@switchyard/testing';
import { queueApp } from './queue.app';
import { QueueTestClient, enqueuePayload } from './queue-test-client.spec-helper';

const DAEMON = 'daemon-token';

const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

describe('task.token_introspect (real NATS + Postgres)', () => {
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

  /** A claimed task of the given source on a runtime of its own, so tests never claim each other's work. */
  async function claimedTask(source: TaskSource): Promise<{ taskId: string; attempt: number; leaseToken: string; taskToken: string; agentId: string }> {
    const runtimeId = `${DAEMON}-${uniqueNamespace('runtime')}`;
    const agentId = uniqueNamespace('agent');
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId, source, workspaceId: 'workspace-token' }));
    await client.heartbeat(runtimeId, DAEMON);
    const { tasks } = await client.expectOk('task.claim', { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey });
    const [task] = tasks;
    if (task?.taskId !== taskId) throw new Error('the enqueued task was not claimed');
    return { ...task, agentId };
  }

  const introspect = (token: string, requestId?: string) => client.expectOk('task.token_introspect', { tokenHash: hashOf(token) }, requestId);

  it('given a claimed issue task, names its workspace, agent, attempt and issue while the attempt lives, and nothing once it completed', async () => {
    const task = await claimedTask({ kind: 'issue', issueId: 'issue-token-1', trigger: 'assignment', commentId: null });
    const active = {
      active: true,
      taskId: task.taskId,
      attempt: 1,
      workspaceId: 'workspace-token',
      agentId: task.agentId,
      sourceKind: 'issue',
      issueId: 'issue-token-1',
      chatSessionId: null,
      expiresAt: expect.any(String) as unknown,
    };
    expect(await introspect(task.taskToken)).toEqual(active);

    await client.expectOk('task.start', { taskId: task.taskId, attempt: 1, daemonId: DAEMON, leaseToken: task.leaseToken, workDir: '/w', resumedSessionId: null });
    expect(await introspect(task.taskToken, 'introspect-once')).toEqual(active);
    // A read is not recorded: asked again with the same request id, it is read again, not replayed.
    expect(await client.query('select 1 from processed_command where request_id = $1', ['introspect-once'])).toEqual([]);

    await client.expectOk('task.complete', { taskId: task.taskId, attempt: 1, daemonId: DAEMON, leaseToken: task.leaseToken, sessionId: null, output: 'done', durationMs: 1, usage: [], repositories: [] });
    expect(await introspect(task.taskToken)).toEqual({ active: false, reason: 'revoked' });
  });

  it('given a chat task, names its chat session and no issue', async () => {
    const task = await claimedTask({ kind: 'chat', chatSessionId: 'chat-token-1', chatMessageId: 'chat-message-1' });
    expect(await introspect(task.taskToken)).toMatchObject({ active: true, sourceKind: 'chat', issueId: null, chatSessionId: 'chat-token-1' });
  });

  it('given an attempt handed back to the queue, refuses its token as attempt_ended though it was not revoked', async () => {
    const task = await claimedTask({ kind: 'quick_create' });
    await client.expectOk('task.requeue', { taskId: task.taskId, attempt: 1, daemonId: DAEMON, reason: 'cancelled_by_shutdown', message: 'daemon stopping' });
    expect(await client.query<{ revoked: boolean }>('select revoked_at is not null as revoked from task_token where task_id = $1', [task.taskId])).toEqual([{ revoked: false }]);
    expect(await introspect(task.taskToken)).toEqual({ active: false, reason: 'attempt_ended' });
  });

  it('given a token past its expiry, refuses it as expired', async () => {
    const task = await claimedTask({ kind: 'quick_create' });
    await client.query(`update task_token set expires_at = now() - interval '1 second' where task_id = $1`, [task.taskId]);
    expect(await introspect(task.taskToken)).toEqual({ active: false, reason: 'expired' });
  });

  it('given a token the queue never issued, answers unknown', async () => {
    expect(await introspect('syt_never-issued')).toEqual({ active: false, reason: 'unknown' });
  });
});
