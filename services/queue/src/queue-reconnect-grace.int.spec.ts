import { findQueuedTaskById, type QueuedTask, type SqlRunner } from '@switchyard/persistence';
import { TEST_SEALING_KEY, startServiceForTest, uniqueNamespace, type ServiceUnderTest } from '@switchyard/testing';
import { queueApp } from './queue.app';
import { QueueTestClient, enqueuePayload } from './queue-test-client.spec-helper';

const DAEMON = 'daemon-grace';
const OFFLINE_AFTER_MS = 1_500;
const LEASE_MS = 2_000;
const GRACE_MS = 6_000;
/** Longer than the offline window and the lease, shorter than the grace: a laptop lid closed briefly. */
const SHORT_SILENCE_MS = 3_500;

const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Polls until `probe` gives a value; the bound only keeps a broken build from hanging. */
async function eventually<T>(probe: () => Promise<T | undefined>, whileWaiting: () => Promise<void> = () => Promise.resolve()): Promise<T> {
  for (const giveUpAt = Date.now() + 60_000; Date.now() < giveUpAt; ) {
    const value = await probe();
    if (value !== undefined) return value;
    await whileWaiting();
    await sleep(50);
  }
  throw new Error('condition never met');
}

describe('queue: reconnect grace (real NATS + Postgres, short windows)', () => {
  let queue: ServiceUnderTest;
  let client: QueueTestClient;
  let reader: SqlRunner;

  beforeAll(async () => {
    queue = await startServiceForTest(queueApp, {
      database: true,
      env: {
        QUEUE_RUNTIME_OFFLINE_AFTER_MS: String(OFFLINE_AFTER_MS),
        QUEUE_HEARTBEAT_INTERVAL_MS: '150',
        QUEUE_SWEEP_INTERVAL_MS: '100',
        QUEUE_LEASE_MS: String(LEASE_MS),
        QUEUE_START_DEADLINE_MS: String(LEASE_MS),
        QUEUE_RECONNECT_GRACE_MS: String(GRACE_MS),
      },
    });
    client = await QueueTestClient.connect(queue);
    reader = { query: (sql: string, parameters?: unknown[]) => client.query(sql, parameters) as never };
  });
  afterAll(async () => {
    await client?.close();
    await queue?.stop();
  });

  const taskOf = async (taskId: string): Promise<QueuedTask> => {
    const task = await findQueuedTaskById(reader, taskId);
    if (!task) throw new Error(`no task ${taskId}`);
    return task;
  };

  /** A runtime heard from, and one task claimed on it (started unless `started` is false). */
  async function claimedTask(options: { readonly started: boolean }) {
    const runtimeId = `${DAEMON}-${uniqueNamespace('runtime')}`;
    await client.heartbeat(runtimeId, DAEMON);
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent') }));
    const { tasks } = await client.expectOk('task.claim', { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey });
    const { attempt, leaseToken } = tasks[0]!;
    const report = { taskId, attempt, daemonId: DAEMON, leaseToken };
    if (options.started) await client.expectOk('task.start', { ...report, workDir: '/w', resumedSessionId: null });
    return { runtimeId, taskId, report };
  }

  it('keeps a running attempt through a silence past its lease and the offline window, shows it reconnecting, and lets the daemon carry on', async () => {
    // Given a running attempt whose daemon then goes silent (no heartbeat, no renewal) past its lease
    const { runtimeId, taskId, report } = await claimedTask({ started: true });
    expect((await taskOf(taskId)).connection).toBe('connected');
    const reconnecting = await eventually(async () => {
      const task = await taskOf(taskId);
      return task.connection === 'reconnecting' ? task : undefined;
    });
    expect(reconnecting.reconnectingSince).toBeInstanceOf(Date);
    await sleep(SHORT_SILENCE_MS);

    // When it comes back within the grace: heartbeats again, renews, completes
    await client.heartbeat(runtimeId, DAEMON);
    await client.expectOk('task.renew', report);
    await eventually(async () => ((await taskOf(taskId)).connection === 'connected' ? true : undefined));
    await client.expectOk('task.complete', { ...report, sessionId: null, output: 'done', durationMs: 1, usage: [], repositories: [] });

    // Then it completed, and the silence left no ending and no retry
    const task = await taskOf(taskId);
    expect([task.status, task.connection, task.reconnectingSince]).toEqual(['completed', null, null]);
    const types = await client.storedEventTypes(taskId);
    expect(types.filter((type) => !['task.heartbeat'].includes(type))).toEqual(['task.enqueued', 'task.claimed', 'task.started', 'task.completed']);
    expect(await client.query('select task_id from agent_task_queue where retry_of_task_id = $1', [taskId])).toEqual([]);
  });

  it('keeps a claimed attempt through a silence past its start deadline: the returning daemon still starts it', async () => {
    const { runtimeId, taskId, report } = await claimedTask({ started: false });
    await eventually(async () => ((await taskOf(taskId)).connection === 'reconnecting' ? true : undefined));
    await sleep(SHORT_SILENCE_MS);

    await client.heartbeat(runtimeId, DAEMON);
    await client.expectOk('task.start', { ...report, workDir: '/w', resumedSessionId: null });

    expect((await taskOf(taskId)).status).toBe('running');
    expect(await client.storedEventTypes(taskId)).toEqual(['task.enqueued', 'task.claimed', 'task.started']);
  });

  it('gives a daemon back from a silence one lease window to renew: one that only heartbeats then times out', async () => {
    // Given a running attempt whose lease ran out while its daemon was silent
    const { runtimeId, taskId } = await claimedTask({ started: true });
    await sleep(SHORT_SILENCE_MS);

    // When the daemon heartbeats again but never renews (stuck)
    const heardAgainAt = Date.now();
    const failed = await eventually(
      async () => {
        const task = await taskOf(taskId);
        return task.status === 'failed' ? task : undefined;
      },
      () => client.publishHeartbeat(runtimeId, DAEMON).then(() => undefined),
    );

    // Then the lease ends it, but not before a whole lease window of being heard again
    expect(failed.failureReason).toBe('timeout');
    expect(failed.terminalAt!.getTime() - heardAgainAt).toBeGreaterThanOrEqual(LEASE_MS);
    expect(await client.storedEventTypes(taskId)).toEqual(['task.enqueued', 'task.claimed', 'task.started', 'task.timed_out', 'task.failed']);
  });

  it('counts a claim as a sign of life: an attempt claimed before the returning daemon’s first heartbeat is recorded is not lost at once', async () => {
    // Given a runtime last heard from longer ago than the grace (its daemon was away)
    const runtimeId = `${DAEMON}-${uniqueNamespace('runtime')}`;
    await client.heartbeat(runtimeId, DAEMON);
    await client.query(`update runtime_presence set last_heartbeat_at = now() - interval '1 minute' where runtime_id = $1`, [runtimeId]);
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent') }));

    // When the daemon, back, claims and starts before its heartbeat arrives
    const { tasks } = await client.expectOk('task.claim', { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey });
    await client.expectOk('task.start', { taskId, attempt: tasks[0]!.attempt, daemonId: DAEMON, leaseToken: tasks[0]!.leaseToken, workDir: '/w', resumedSessionId: null });
    await sleep(1_000);

    // Then the sweeps since have left it running: its claim and start were its daemon's signs of life
    expect((await taskOf(taskId)).status).toBe('running');
    expect(await client.storedEventTypes(taskId)).toEqual(['task.enqueued', 'task.claimed', 'task.started']);
  });

  it('fails an attempt runtime_offline only past the grace, retries it, and refuses the daemon that returns later', async () => {
    // Given a running attempt whose daemon is not heard again
    const { runtimeId, taskId, report } = await claimedTask({ started: true });
    const [presence] = await client.query<{ last_heartbeat_at: Date }>('select last_heartbeat_at from runtime_presence where runtime_id = $1', [runtimeId]);

    // When the silence outlasts the grace
    const failed = await eventually(async () => {
      const task = await taskOf(taskId);
      return task.status === 'failed' ? task : undefined;
    });

    // Then the attempt is lost for runtime_offline, not before the grace, and its retry waits out its backoff
    expect(failed.failureReason).toBe('runtime_offline');
    expect(failed.terminalAt!.getTime() - presence!.last_heartbeat_at.getTime()).toBeGreaterThanOrEqual(GRACE_MS);
    const [ending] = await client.query<{ message: string }>(`select payload->'payload'->>'message' as message from outbox_event where aggregate_id = $1 and type = 'task.failed'`, [taskId]);
    expect(ending!.message).toMatch(/did not reconnect within the grace/);
    expect(await client.query('select status from agent_task_queue where retry_of_task_id = $1', [taskId])).toEqual([{ status: 'deferred' }]);
    // The daemon back after the grace: its renewal is refused (it stops the run), its late report changes nothing.
    expect(await client.send('task.renew', report)).toMatchObject({ ok: false });
    await client.send('task.complete', { ...report, sessionId: null, output: 'late', durationMs: 1, usage: [], repositories: [] });
    expect((await taskOf(taskId)).status).toBe('failed');
  });
});
