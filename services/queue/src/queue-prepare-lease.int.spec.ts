import { TEST_SEALING_KEY, startServiceForTest, uniqueNamespace, type ServiceUnderTest } from '@switchyard/testing';
import { queueApp } from './queue.app';
import { QueueTestClient, enqueuePayload } from './queue-test-client.spec-helper';

const DAEMON = 'daemon-prepare-lease';

/** Polls until `probe` gives a value; the bound only keeps a broken build from hanging. */
async function eventually<T>(probe: () => Promise<T | undefined>, whileWaiting: () => Promise<void> = () => Promise.resolve()): Promise<T> {
  for (const giveUpAt = Date.now() + 60_000; Date.now() < giveUpAt; ) {
    const value = await probe();
    if (value !== undefined) return value;
    await whileWaiting();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('condition never met');
}

describe('queue sweeper and the prepare lease (real NATS + Postgres, short start deadline)', () => {
  let queue: ServiceUnderTest;
  let client: QueueTestClient;

  beforeAll(async () => {
    queue = await startServiceForTest(queueApp, {
      database: true,
      env: {
        QUEUE_START_DEADLINE_MS: '2000',
        QUEUE_SWEEP_INTERVAL_MS: '100',
        QUEUE_HEARTBEAT_INTERVAL_MS: '150',
        // Silence of the runtime is not what this test is about.
        QUEUE_RUNTIME_OFFLINE_AFTER_MS: '600000',
      },
    });
    client = await QueueTestClient.connect(queue);
  });
  afterAll(async () => {
    await client?.close();
    await queue?.stop();
  });

  const statusOf = async (taskId: string): Promise<string | undefined> =>
    (await client.query<{ status: string }>('select status from agent_task_queue where task_id = $1', [taskId]))[0]?.status;

  it('keeps a waiting attempt its daemon renews past the start deadline that requeues an unrenewed one, then requeues it once renewals stop', async () => {
    // Given two tasks claimed together (the same start deadline), both waiting for their local directory
    const runtimeId = `${DAEMON}-${uniqueNamespace('runtime')}`;
    await client.heartbeat(runtimeId, DAEMON);
    const renewedTask = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent') }));
    const silentTask = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent') }));
    const { tasks } = await client.expectOk('task.claim', { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 2, sealingKey: TEST_SEALING_KEY.publicKey });
    expect(tasks.map((task) => task.taskId).sort()).toEqual([renewedTask.taskId, silentTask.taskId].sort());
    for (const task of tasks) {
      await client.expectOk('task.await_local_directory', {
        taskId: task.taskId,
        attempt: task.attempt,
        daemonId: DAEMON,
        leaseToken: task.leaseToken,
        localPath: '/home/ada/code/app',
        heldByTaskId: null,
      });
    }
    const renewed = tasks.find((task) => task.taskId === renewedTask.taskId)!;
    const renew = async (): Promise<void> => {
      await client.expectOk('task.renew', { taskId: renewed.taskId, attempt: renewed.attempt, daemonId: DAEMON, leaseToken: renewed.leaseToken });
    };

    // When only one of them is renewed, until the sweeper has requeued the other for its missed start deadline
    await eventually(async () => ((await statusOf(silentTask.taskId)) === 'queued' ? true : undefined), renew);

    // Then the renewed one still waits, its deadline pushed out past the one both started with
    expect(await statusOf(renewedTask.taskId)).toBe('waiting_local_directory');
    const [row] = await client.query<{ start_by: Date }>('select start_by from agent_task_queue where task_id = $1', [renewedTask.taskId]);
    expect(row!.start_by.getTime()).toBeGreaterThan(Date.parse(renewed.startBy));
    expect(await client.storedEventTypes(silentTask.taskId)).toEqual([
      'task.enqueued',
      'task.claimed',
      'task.local_directory_awaited',
      'task.timed_out',
      'task.requeued',
    ]);

    // And once its renewals stop, the start deadline requeues it too (not_started)
    await eventually(async () => ((await statusOf(renewedTask.taskId)) === 'queued' ? true : undefined));
    const [requeued] = await client.query<{ reason: string }>(
      `select payload->'payload'->>'reason' as reason from outbox_event where aggregate_id = $1 and type = 'task.requeued'`,
      [renewedTask.taskId],
    );
    expect(requeued).toEqual({ reason: 'not_started' });
  });
});
