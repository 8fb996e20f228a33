import { HEADERS, STREAM_CATALOG, createEvent, subjects } from '@switchyard/contracts';
import { publish } from '@switchyard/messaging';
import { collectNotices, readStream } from '@switchyard/messaging/testing';
import { TEST_SEALING_KEY, startServiceForTest, uniqueNamespace, type ServiceUnderTest } from '@switchyard/testing';
import { queueApp } from './queue.app';
import { QueueTestClient, enqueuePayload } from './queue-test-client.spec-helper';

const DAEMON = 'daemon-sweeper';
const OFFLINE_AFTER_MS = 1_500;
/** The design's promise: a dead daemon's task fails within 30 s of its last heartbeat (with a grace that short). */
const FAILURE_WINDOW_MS = 30_000;

async function waitFor<T>(probe: () => Promise<T | undefined>, deadlineMs: number): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('queue sweeper (real NATS + Postgres, short timings)', () => {
  let queue: ServiceUnderTest;
  let client: QueueTestClient;

  beforeAll(async () => {
    queue = await startServiceForTest(queueApp, {
      database: true,
      env: {
        QUEUE_RUNTIME_OFFLINE_AFTER_MS: String(OFFLINE_AFTER_MS),
        QUEUE_HEARTBEAT_INTERVAL_MS: '150',
        QUEUE_SWEEP_INTERVAL_MS: '200',
        QUEUE_START_DEADLINE_MS: '1000',
        QUEUE_LEASE_MS: '60000',
        // The attempt-lost window; the reconnect grace itself has its own spec.
        QUEUE_RECONNECT_GRACE_MS: String(OFFLINE_AFTER_MS),
      },
    });
    client = await QueueTestClient.connect(queue);
  });
  afterAll(async () => {
    await client?.close();
    await queue?.stop();
  });

  async function heartbeat(runtimeId: string): Promise<void> {
    const envelope = createEvent({ type: 'runtime.heartbeat', payload: { daemonId: DAEMON, runtimeId, activeTaskIds: [], freeSlots: 1 } });
    await publish(client.messaging, { subject: subjects.runtimeHeartbeat(runtimeId, DAEMON), data: envelope, messageId: envelope.eventId });
  }

  async function taskRow(taskId: string): Promise<{ status: string; attempt: number; failure_reason: string | null } | undefined> {
    const [row] = await client.query<{ status: string; attempt: number; failure_reason: string | null }>(
      'select status, attempt, failure_reason from agent_task_queue where task_id = $1',
      [taskId],
    );
    return row;
  }

  it('fails a running task runtime_offline when heartbeats stop, queues its retry, and ignores the late daemon', async () => {
    const runtimeId = `${DAEMON}-${uniqueNamespace('runtime')}`;
    await heartbeat(runtimeId);
    await waitFor(async () => (await client.query('select 1 from runtime_presence where runtime_id = $1', [runtimeId]))[0], 10_000);
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent') }));
    const { tasks } = await client.expectOk('task.claim', { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey });
    const { leaseToken } = tasks[0]!;
    await client.expectOk('task.start', { taskId, attempt: tasks[0]!.attempt, daemonId: DAEMON, leaseToken, workDir: '/w', resumedSessionId: null });
    await heartbeat(runtimeId);
    // The last heartbeat: from here the failure must come within the window (waitFor's deadline).

    const failed = await waitFor(async () => {
      const row = await taskRow(taskId);
      return row?.status === 'failed' ? row : undefined;
    }, FAILURE_WINDOW_MS);
    expect(failed).toEqual({ status: 'failed', attempt: 1, failure_reason: 'runtime_offline' });

    const retries = await client.query<{ status: string; attempt: number }>('select status, attempt from agent_task_queue where retry_of_task_id = $1', [taskId]);
    // The retry waits out its backoff (QUEUE_RETRY_BACKOFF_*).
    expect(retries).toEqual([{ status: 'deferred', attempt: 0 }]);

    // The daemon comes back: its renewal is refused, so it stops the run; its late complete changes nothing.
    const renewal = await client.send('task.renew', { taskId, attempt: 1, daemonId: DAEMON, leaseToken });
    expect(renewal).toMatchObject({ ok: false });
    await client.send('task.complete', { taskId, attempt: 1, daemonId: DAEMON, leaseToken, sessionId: null, output: 'late', durationMs: 1, usage: [], repositories: [] });
    expect(await taskRow(taskId)).toEqual(failed);
    expect(await client.storedEventTypes(taskId)).toEqual(['task.enqueued', 'task.claimed', 'task.started', 'task.failed']);
  });

  it('nudges the runtime’s daemons once it has queued a retry, so they need not wait for their poll', async () => {
    const runtimeId = `${DAEMON}-${uniqueNamespace('runtime')}`;
    await heartbeat(runtimeId);
    await waitFor(async () => (await client.query('select 1 from runtime_presence where runtime_id = $1', [runtimeId]))[0], 10_000);
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent') }));
    const { tasks } = await client.expectOk('task.claim', { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey });
    await client.expectOk('task.start', { taskId, attempt: 1, daemonId: DAEMON, leaseToken: tasks[0]!.leaseToken, workDir: '/w', resumedSessionId: null });
    // From here only the sweeper queues work on this runtime (the enqueue's own nudge is behind us).
    const nudges = await collectNotices(client.messaging, subjects.workAvailable(DAEMON, runtimeId), { max: 1 });

    // No nudge within the failure window rejects.
    expect(await nudges.waitFor(1, { timeoutMs: FAILURE_WINDOW_MS })).toHaveLength(1);
    const retries = await client.query<{ status: string }>('select status from agent_task_queue where retry_of_task_id = $1', [taskId]);
    expect(retries).toEqual([{ status: 'deferred' }]);
  });

  it('takes a heartbeat’s daemon from its subject: one naming another daemon is dead-lettered, never recorded', async () => {
    // A runtime of the publishing daemon: only the payload's daemon is wrong.
    const forgedRuntime = `${DAEMON}-${uniqueNamespace('runtime-forged')}`;
    const forged = createEvent({ type: 'runtime.heartbeat', payload: { daemonId: 'daemon-victim', runtimeId: forgedRuntime, activeTaskIds: [], freeSlots: 1 } });
    await publish(client.messaging, { subject: subjects.runtimeHeartbeat(forgedRuntime, DAEMON), data: forged, messageId: forged.eventId });
    const genuineRuntime = `${DAEMON}-${uniqueNamespace('runtime')}`;
    await heartbeat(genuineRuntime);

    await waitFor(async () => (await client.query('select 1 from runtime_presence where runtime_id = $1', [genuineRuntime]))[0], 10_000);
    const letters = await waitFor(async () => {
      const found = (await readStream(client.messaging, STREAM_CATALOG.DEAD_LETTERS.name)).filter((letter) => letter.subject === subjects.deadLetter(STREAM_CATALOG.RUNTIME_EVENTS.name, 'queue-runtime-presence'));
      return found.length > 0 ? found : undefined;
    }, 10_000);
    expect(letters.map((letter) => letter.headers[HEADERS.deadLetterSubject])).toEqual([subjects.runtimeHeartbeat(forgedRuntime, DAEMON)]);
    expect(await client.query('select 1 from runtime_presence where runtime_id = $1', [forgedRuntime])).toEqual([]);
  });

  it('requeues a claimed task that never starts, and the next claim is attempt 2', async () => {
    const runtimeId = `${DAEMON}-${uniqueNamespace('runtime')}`;
    await heartbeat(runtimeId);
    await waitFor(async () => (await client.query('select 1 from runtime_presence where runtime_id = $1', [runtimeId]))[0], 10_000);
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent') }));
    const first = await client.expectOk('task.claim', { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey });
    expect(first.tasks.map((task) => task.attempt)).toEqual([1]);

    // The runtime stays heard from (the daemon claims only for its runtimes): the start deadline, not silence, ends the attempt.
    await waitFor(async () => {
      await heartbeat(runtimeId);
      return (await taskRow(taskId))?.status === 'queued' ? true : undefined;
    }, 30_000);
    expect(await client.storedEventTypes(taskId)).toEqual(['task.enqueued', 'task.claimed', 'task.timed_out', 'task.requeued']);

    const second = await client.expectOk('task.claim', { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey });
    expect(second.tasks.map((task) => [task.taskId, task.attempt])).toEqual([[taskId, 2]]);
  });

  it('expires a queued task past its expiry time with a reason', async () => {
    const runtimeId = `${DAEMON}-${uniqueNamespace('runtime')}`;
    const expiresAt = new Date(Date.now() + 300).toISOString();
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent'), expiresAt }));

    const row = await waitFor(async () => {
      const current = await taskRow(taskId);
      return current?.status === 'failed' ? current : undefined;
    }, 30_000);
    expect(row).toEqual({ status: 'failed', attempt: 0, failure_reason: 'expired' });
  });
});
