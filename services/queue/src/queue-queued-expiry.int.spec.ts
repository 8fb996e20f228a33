import { TEST_SEALING_KEY, startServiceForTest, uniqueNamespace, type ServiceUnderTest } from '@switchyard/testing';
import { queueApp } from './queue.app';
import { QueueTestClient, enqueuePayload } from './queue-test-client.spec-helper';

/** Long enough for a claim right after the enqueue; short enough to wait out twice. */
const TTL_MS = 8_000;

interface QueueRow {
  readonly task_id: string;
  readonly status: string;
  readonly failure_reason: string | null;
  readonly fire_at: Date | null;
  readonly expires_at: Date | null;
}

describe('queue ageing: queued tasks expire on a live runtime, and a retry keeps its own clock (real NATS + Postgres)', () => {
  let queue: ServiceUnderTest;
  let client: QueueTestClient;

  beforeAll(async () => {
    queue = await startServiceForTest(queueApp, {
      database: true,
      env: { QUEUE_SWEEP_INTERVAL_MS: '200', QUEUE_RETRY_BACKOFF_BASE_MS: '200', QUEUE_RETRY_BACKOFF_MAX_MS: '1000', QUEUE_LEASE_MS: '600000' },
    });
    client = await QueueTestClient.connect(queue);
  });
  afterAll(async () => {
    await client?.close();
    await queue?.stop();
  });

  /** Polls until `probe` answers, heartbeating the runtime all along so it stays live. */
  async function whileLive<T>(runtime: { runtimeId: string; daemonId: string }, probe: () => Promise<T | undefined>): Promise<T> {
    for (const deadline = Date.now() + 60_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
      await client.publishHeartbeat(runtime.runtimeId, runtime.daemonId);
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error('condition not met within 60 s');
    }
  }

  const rowOf = async (taskId: string): Promise<QueueRow | undefined> =>
    (await client.query<QueueRow & Record<string, unknown>>('select task_id, status, failure_reason, fire_at, expires_at from agent_task_queue where task_id = $1', [taskId]))[0];
  const failedRow = (taskId: string) => async () => {
    const row = await rowOf(taskId);
    return row?.status === 'failed' ? row : undefined;
  };
  const expiryMessageOf = async (taskId: string): Promise<string | undefined> =>
    (await client.query<{ message: string }>(`select payload -> 'payload' ->> 'message' as message from outbox_event where aggregate_id = $1 and type = 'task.expired'`, [taskId]))[0]
      ?.message;

  async function liveRuntime(): Promise<{ runtimeId: string; daemonId: string }> {
    const daemonId = uniqueNamespace('daemon-ageing');
    const runtime = { runtimeId: `${daemonId}-runtime`, daemonId };
    await client.heartbeat(runtime.runtimeId, daemonId);
    return runtime;
  }

  it('expires an unclaimed task `expired` once its expiresAt passes, though its runtime heartbeats all along', async () => {
    const runtime = await liveRuntime();
    const expiresAt = new Date(Date.now() + 1_000).toISOString();
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId: runtime.runtimeId, agentId: uniqueNamespace('agent'), expiresAt, queuedTtlMs: 1_000 }));

    const failed = await whileLive(runtime, failedRow(taskId));
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'expired' });
    expect(await expiryMessageOf(taskId)).toMatch(/^Waited queued past its TTL/);
    expect(await client.storedEventTypes(taskId)).toEqual(['task.enqueued', 'task.expired']);
    // The runtime was live throughout: this is the TTL, not the long-offline expiry.
    const [presence] = await client.query<{ offline_since: Date | null }>('select offline_since from runtime_presence where runtime_id = $1', [runtime.runtimeId]);
    expect(presence).toEqual({ offline_since: null });
  });

  it('gives the retry of a task failed after its deadline the same TTL from the retry’s fire time, and expires it by that', async () => {
    const runtime = await liveRuntime();
    const { daemonId, runtimeId } = runtime;
    const expiresAt = new Date(Date.now() + TTL_MS).toISOString();
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent'), expiresAt, queuedTtlMs: TTL_MS }));
    const { tasks } = await client.expectOk('task.claim', { daemonId, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey });
    expect(tasks.map((task) => task.taskId)).toEqual([taskId]);
    const { attempt, leaseToken } = tasks[0]!;
    await client.expectOk('task.start', { taskId, attempt, daemonId, leaseToken, workDir: '/w', resumedSessionId: null });

    // The run outlasts the original's deadline (a running task does not expire), then fails transiently.
    await whileLive(runtime, () => Promise.resolve(Date.now() > Date.parse(expiresAt) ? true : undefined));
    expect((await rowOf(taskId))?.status).toBe('running');
    await client.expectOk('task.fail', { taskId, attempt, daemonId, leaseToken, reason: 'provider_network', message: 'connection reset', sessionId: null, detail: null, durationMs: 5, repositories: [] });

    const [retry] = await client.query<QueueRow & Record<string, unknown>>('select task_id, status, failure_reason, fire_at, expires_at from agent_task_queue where retry_of_task_id = $1', [taskId]);
    expect(retry).toMatchObject({ status: 'deferred' });
    // Its own clock: the TTL again, from when it may first be claimed, past the original's deadline.
    expect(retry!.expires_at!.getTime() - retry!.fire_at!.getTime()).toBe(TTL_MS);
    expect(retry!.expires_at!.getTime()).toBeGreaterThan(Date.parse(expiresAt));

    const expired = await whileLive(runtime, failedRow(retry!.task_id));
    expect(expired).toMatchObject({ failure_reason: 'expired' });
    expect(await client.storedEventTypes(retry!.task_id)).toEqual(['task.enqueued', 'task.deferred', 'task.expired']);
    // `expired` is not transient: the lineage ends here.
    expect(await client.query('select 1 from agent_task_queue where retry_of_task_id = $1', [retry!.task_id])).toEqual([]);
  });
});
