import { SWITCHYARD_METRICS } from '@switchyard/telemetry';
import { TEST_SEALING_KEY, scrapeMetrics, startServiceForTest, uniqueNamespace, type ServiceUnderTest } from '@switchyard/testing';
import { queueApp } from './queue.app';
import { QueueTestClient, enqueuePayload } from './queue-test-client.spec-helper';

const DAEMON = 'daemon-metrics';
const { queueTasks, claimLatency, taskDuration } = SWITCHYARD_METRICS;

/**
 * The queue's `/metrics` as Prometheus scrapes it, on its own listener (METRICS_PORT), with the
 * queue on real NATS and Postgres: the depth by state follows the table, a claim is observed once
 * (not again for a replayed claim), an ended task is observed under its outcome, and no id, token
 * or prompt of the tasks appears in what is served.
 */
describe('queue metrics (real NATS + Postgres)', () => {
  let queue: ServiceUnderTest | undefined;
  let client: QueueTestClient | undefined;

  beforeAll(async () => {
    queue = await startServiceForTest(queueApp, { database: true, env: { METRICS_PORT: '0' } });
  });

  afterAll(async () => {
    await client?.close();
    await queue?.stop();
  });

  async function connected(): Promise<QueueTestClient> {
    client ??= await QueueTestClient.connect(queue!);
    return client;
  }

  it('serves the depth by state, the claim latency and the task duration, and nothing that names a task', async () => {
    const client = await connected();
    const metricsUrl = queue?.metricsUrl;
    if (!metricsUrl) throw new Error('the queue did not report a metrics URL with METRICS_PORT set');
    expect(new URL(metricsUrl).port).not.toBe(new URL(queue!.url).port);
    const before = await scrapeMetrics(metricsUrl);
    expect({ status: before.status, contentType: before.contentType }).toEqual({ status: 200, contentType: expect.stringContaining('text/plain') });
    expect(before.value(queueTasks.name, { state: 'queued', service: 'queue' })).toBe(0);
    expect(before.value(`${claimLatency.name}_count`)).toBe(0);

    const runtimeId = `${DAEMON}-${uniqueNamespace('runtime')}`;
    const prompt = `Fix the flaky test ${uniqueNamespace('prompt')}`;
    const first = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent'), workspaceId: uniqueNamespace('workspace'), prompt }));
    const second = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent'), workspaceId: uniqueNamespace('workspace'), prompt }));
    await client.heartbeat(runtimeId, DAEMON);
    const claim = { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey };
    const claimed = await client.expectOk('task.claim', claim, 'metrics-claim');
    await client.expectOk('task.claim', claim, 'metrics-claim'); // replayed: already applied, not observed again
    const left = claimed.tasks[0]?.taskId === first.taskId ? second : first;
    await client.expectOk('task.cancel', { taskId: left.taskId, requestedBy: { kind: 'user', id: 'user-ada' }, reason: null });

    const after = await scrapeMetrics(metricsUrl);
    expect(after.status).toBe(200);
    expect(claimed.tasks).toHaveLength(1);
    expect({
      queued: after.value(queueTasks.name, { state: 'queued' }),
      deferred: after.value(queueTasks.name, { state: 'deferred' }),
      dispatched: after.value(queueTasks.name, { state: 'dispatched' }),
      running: after.value(queueTasks.name, { state: 'running' }),
      endedStatesListed: after.samples.filter((sample) => sample.name === queueTasks.name && ['completed', 'failed', 'cancelled'].includes(sample.labels['state'] ?? '')).length,
    }).toEqual({ queued: 0, deferred: 0, dispatched: 1, running: 0, endedStatesListed: 0 });
    expect(after.value(`${claimLatency.name}_count`)).toBe(1);
    expect(after.value(`${claimLatency.name}_bucket`, { le: '+Inf' })).toBe(1);
    expect(after.value(`${claimLatency.name}_sum`)).toBeGreaterThanOrEqual(0);
    expect(after.value(`${taskDuration.name}_count`, { outcome: 'cancelled' })).toBe(1);
    expect(after.value(`${taskDuration.name}_count`, { outcome: 'completed' })).toBeUndefined();
    // Every series says which process it comes from; the default process metrics are there too.
    expect(after.samples.every((sample) => sample.labels['service'] === 'queue')).toBe(true);
    expect(after.value('process_cpu_user_seconds_total')).toBeGreaterThan(0);

    const task = claimed.tasks[0]!;
    const named = [first.taskId, second.taskId, task.taskToken, task.leaseToken, task.workspaceId, task.agentId, runtimeId, DAEMON, prompt];
    expect(named.filter((value) => after.text.includes(value))).toEqual([]);
  });

  it('closes the metrics listener when the service stops', async () => {
    const metricsUrl = queue!.metricsUrl!;
    // The stop drops the test database, ending every connection to it: the client's first.
    await client?.close();
    client = undefined;
    await queue!.stop();
    queue = undefined;
    await expect(fetch(metricsUrl)).rejects.toThrow();
  });
});
