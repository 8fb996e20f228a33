import { subjects } from '@switchyard/contracts';
import { collectNotices } from '@switchyard/messaging/testing';
import { TEST_SEALING_KEY, startServiceForTest, uniqueNamespace, type ServiceUnderTest } from '@switchyard/testing';
import { queueApp } from '../queue.app';
import { QueueTestClient, enqueuePayload } from '../queue-test-client.spec-helper';

const BACKOFF_BASE_MS = 100;
const BACKOFF_MAX_MS = 60_000;

describe('retry backoff: a transient failure is retried through deferred (real NATS + Postgres)', () => {
  let queue: ServiceUnderTest;
  let client: QueueTestClient;

  beforeAll(async () => {
    queue = await startServiceForTest(queueApp, {
      database: true,
      env: { QUEUE_RETRY_BACKOFF_BASE_MS: String(BACKOFF_BASE_MS), QUEUE_RETRY_BACKOFF_MAX_MS: String(BACKOFF_MAX_MS), QUEUE_SWEEP_INTERVAL_MS: '200' },
    });
    client = await QueueTestClient.connect(queue);
  });
  afterAll(async () => {
    await client?.close();
    await queue?.stop();
  });

  /** A task on a runtime of its own, claimed, started and failed by its daemon; returns the retry's row. */
  async function failedTask(failure: { reason: 'rate_limited' | 'provider_network'; message: string }) {
    const daemonId = uniqueNamespace('daemon');
    const runtimeId = `${daemonId}-runtime`;
    await client.heartbeat(runtimeId, daemonId);
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent') }));
    const claim = () => client.expectOk('task.claim', { daemonId, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey });
    const { tasks } = await claim();
    const { leaseToken, attempt } = tasks[0]!;
    await client.expectOk('task.start', { taskId, attempt, daemonId, leaseToken, workDir: '/w', resumedSessionId: null });
    const failed = await client.expectOk('task.fail', { taskId, attempt, daemonId, leaseToken, ...failure, sessionId: null, detail: null, durationMs: 5, repositories: [] });
    const [retry] = await client.query<{ task_id: string; status: string; fire_at: Date; failed_at: Date }>(
      `select retry.task_id, retry.status, retry.fire_at, failed.terminal_at as failed_at
         from agent_task_queue retry join agent_task_queue failed on failed.task_id = retry.retry_of_task_id
        where retry.retry_of_task_id = $1`,
      [taskId],
    );
    return { failed, retry: retry!, claim, daemonId, runtimeId };
  }

  async function deferredEventOf(taskId: string): Promise<unknown> {
    const [row] = await client.query<{ payload: { payload: unknown } }>(`select payload from outbox_event where aggregate_id = $1 and type = 'task.deferred'`, [taskId]);
    return row?.payload.payload;
  }

  it('given a rate limit with the provider\'s retry-after, defers the retry at least that long and does not hand it out before', async () => {
    const { failed, retry, claim } = await failedTask({ reason: 'rate_limited', message: 'API Error: Request rejected (429) [retry_after_ms=45000]' });

    expect(failed).toMatchObject({ state: 'failed', willRetry: true });
    expect(retry.status).toBe('deferred');
    expect(retry.fire_at.getTime() - retry.failed_at.getTime()).toBeGreaterThanOrEqual(45_000);
    expect(await deferredEventOf(retry.task_id)).toMatchObject({ taskId: retry.task_id, reason: 'retry_backoff' });
    expect((await claim()).tasks).toEqual([]);
  });

  it('given a network failure, defers the retry by the backoff, nudges its daemon once due and hands it out then', async () => {
    const { retry, claim, daemonId, runtimeId } = await failedTask({ reason: 'provider_network', message: 'API Error: Unable to connect to API (ECONNRESET)' });
    // The retry's enqueue nudged before the fail reply; what comes now is the sweeper's, once it fell due.
    const nudges = await collectNotices(client.messaging, subjects.workAvailable(daemonId, runtimeId), { max: 1 });

    expect(retry.status).toBe('deferred');
    const delay = retry.fire_at.getTime() - retry.failed_at.getTime();
    expect(delay).toBeGreaterThanOrEqual(BACKOFF_BASE_MS / 2);
    expect(delay).toBeLessThanOrEqual(BACKOFF_BASE_MS);
    expect(await deferredEventOf(retry.task_id)).toMatchObject({ reason: 'retry_backoff' });
    expect(await nudges.waitFor(1, { timeoutMs: 10_000 })).toHaveLength(1);
    const { tasks } = await claim();
    expect(tasks.map((task) => task.taskId)).toEqual([retry.task_id]);
  });
});
