import { subjects } from '@switchyard/contracts';
import { collectNotices } from '@switchyard/messaging/testing';
import { TEST_SEALING_KEY, startServiceForTest, uniqueNamespace, type ServiceUnderTest } from '@switchyard/testing';
import { queueApp } from './queue.app';
import { QueueTestClient, enqueuePayload } from './queue-test-client.spec-helper';

const BOOTED_AT = '2025-06-01T12:00:00.000Z';

async function waitFor(condition: () => boolean, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('task.release_orphans: a restarted daemon gives up its previous process’s attempts (real NATS + Postgres)', () => {
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

  /** A task on a runtime of its own, claimed by `daemonId` and, unless `started: false`, started. */
  async function heldTask(daemonId: string, options: { started: boolean }): Promise<{ taskId: string; runtimeId: string; leaseToken: string }> {
    const runtimeId = `${daemonId}-${uniqueNamespace('runtime')}`;
    // Nudges go to the daemon the queue last heard the runtime from.
    await client.heartbeat(runtimeId, daemonId);
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent') }));
    const { tasks } = await client.expectOk('task.claim', { daemonId, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey });
    expect(tasks.map((task) => task.taskId)).toEqual([taskId]);
    const leaseToken = tasks[0]!.leaseToken;
    if (options.started) await client.expectOk('task.start', { taskId, attempt: 1, daemonId, leaseToken, workDir: '/w', resumedSessionId: null });
    return { taskId, runtimeId, leaseToken };
  }

  async function rows(taskIds: string[]): Promise<Array<{ task_id: string; status: string; failure_reason: string | null }>> {
    return client.query('select task_id, status, failure_reason from agent_task_queue where task_id = any($1) order by task_id', [taskIds]);
  }

  async function retriesOf(taskIds: string[]): Promise<Array<{ retry_of_task_id: string; status: string; runtime_id: string; max_attempts: number }>> {
    return client.query('select retry_of_task_id, status, runtime_id, max_attempts from agent_task_queue where retry_of_task_id = any($1) order by retry_of_task_id', [
      taskIds,
    ]);
  }

  /** Counts the nudges published to the runtime's daemon on its work-available subject from now on. */
  async function nudgesOn(daemonId: string, runtimeId: string): Promise<{ count: () => number }> {
    const nudges = await collectNotices(client.messaging, subjects.workAvailable(daemonId, runtimeId));
    return { count: () => nudges.received.length };
  }

  it('fails the daemon’s running and dispatched attempts runtime_recovery, retries and nudges them, and leaves other daemons alone', async () => {
    const daemonA = uniqueNamespace('daemon-a');
    const daemonB = uniqueNamespace('daemon-b');
    const running = await heldTask(daemonA, { started: true });
    const dispatched = await heldTask(daemonA, { started: false });
    const other = await heldTask(daemonB, { started: true });
    const released = [running, dispatched].sort((left, right) => left.taskId.localeCompare(right.taskId));
    const nudges = await Promise.all(released.map((task) => nudgesOn(daemonA, task.runtimeId)));

    const result = await client.expectOk('task.release_orphans', { daemonId: daemonA, bootedAt: BOOTED_AT }, `release-${daemonA}`);

    expect([...result.tasks].sort((left, right) => left.taskId.localeCompare(right.taskId))).toEqual(
      released.map(({ taskId, runtimeId }) => ({ taskId, attempt: 1, runtimeId, state: 'failed', willRetry: true })),
    );
    expect(await rows(released.map((task) => task.taskId))).toEqual(
      released.map(({ taskId }) => ({ task_id: taskId, status: 'failed', failure_reason: 'runtime_recovery' })),
    );
    const failures = await client.query<{ aggregate_id: string; message: string; causation: string }>(
      `select aggregate_id, payload->'payload'->>'message' as message, payload->>'causationId' as causation
         from outbox_event where type = 'task.failed' and aggregate_id = any($1) order by aggregate_id`,
      [released.map((task) => task.taskId)],
    );
    expect(failures).toEqual(
      released.map(({ taskId }) => ({
        aggregate_id: taskId,
        message: `Daemon ${daemonA} restarted (booted ${BOOTED_AT}); the run was lost with it`,
        causation: `orphan:${taskId}:1`,
      })),
    );
    // Default two attempts per chain: each retry waits out its backoff with the one left, on the same runtime.
    expect(await retriesOf(released.map((task) => task.taskId))).toEqual(
      released.map(({ taskId, runtimeId }) => ({ retry_of_task_id: taskId, status: 'deferred', runtime_id: runtimeId, max_attempts: 1 })),
    );
    // Published before the reply on the queue's one connection, so already here; the wait is slack.
    await waitFor(() => nudges.every((nudge) => nudge.count() > 0), 2_000);
    expect(nudges.map((nudge) => nudge.count())).toEqual([1, 1]);

    expect(await rows([other.taskId])).toEqual([{ task_id: other.taskId, status: 'running', failure_reason: null }]);
    expect(await client.storedEventTypes(other.taskId)).toEqual(['task.enqueued', 'task.claimed', 'task.started']);
    await expect(client.expectOk('task.renew', { taskId: other.taskId, attempt: 1, daemonId: daemonB, leaseToken: other.leaseToken })).resolves.toMatchObject({ cancelRequested: false });
  });

  it('changes nothing when sent again, with the same request id (the first reply) or a new one (nothing left)', async () => {
    const daemonId = uniqueNamespace('daemon-again');
    const { taskId } = await heldTask(daemonId, { started: true });
    const payload = { daemonId, bootedAt: BOOTED_AT };
    const first = await client.send('task.release_orphans', payload, `release-${daemonId}`);
    const events = await client.storedEventTypes(taskId);
    expect(events).toEqual(['task.enqueued', 'task.claimed', 'task.started', 'task.failed']);

    const repeated = await client.send('task.release_orphans', payload, `release-${daemonId}`);
    const nextBoot = await client.send('task.release_orphans', { daemonId, bootedAt: '2025-06-01T12:01:00.000Z' });

    expect(repeated).toEqual({ ...first, alreadyApplied: true });
    expect(nextBoot).toEqual({ ok: true, result: { tasks: [] } });
    expect(await client.storedEventTypes(taskId)).toEqual(events);
    expect(await retriesOf([taskId])).toHaveLength(1);
  });

  it('ends an attempt with a pending cancel as cancelled, without a retry', async () => {
    const daemonId = uniqueNamespace('daemon-cancel');
    const { taskId, runtimeId } = await heldTask(daemonId, { started: true });
    await client.expectOk('task.cancel', { taskId, requestedBy: { kind: 'user', id: 'user-ada' }, reason: 'not needed' });

    const result = await client.expectOk('task.release_orphans', { daemonId, bootedAt: BOOTED_AT });

    expect(result.tasks).toEqual([{ taskId, attempt: 1, runtimeId, state: 'cancelled', willRetry: false }]);
    expect(await retriesOf([taskId])).toEqual([]);
  });
});
