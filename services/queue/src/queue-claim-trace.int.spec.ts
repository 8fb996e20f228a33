import { context, propagation, trace, type Span } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { TEST_SEALING_KEY, startServiceForTest, uniqueNamespace, type ServiceUnderTest } from '@switchyard/testing';
import { queueApp } from './queue.app';
import { QueueTestClient, enqueuePayload } from './queue-test-client.spec-helper';

const DAEMON = 'daemon-trace';

/**
 * The queue keeps a task's trace across the claim, with a real SDK recording to memory (the queue
 * runs in this process): the claim of a task is a span of the trace its enqueue came in, though the
 * daemon's claim request is not; the events the claim appends and the claimed task the daemon gets
 * carry that span's context, and a replayed claim hands out the same.
 */
describe('the claim of a task continues the trace it was enqueued in (real NATS + Postgres)', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let queue: ServiceUnderTest;
  let client: QueueTestClient;

  beforeAll(async () => {
    provider.register();
    queue = await startServiceForTest(queueApp, { database: true });
    client = await QueueTestClient.connect(queue);
  });

  afterAll(async () => {
    await client?.close();
    await queue?.stop();
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  it('claims within the enqueue’s trace and hands the daemon that trace, a replayed claim too', async () => {
    const runtimeId = `${DAEMON}-${uniqueNamespace('runtime')}`;
    const request = await trace.getTracer('queue-claim-trace-test').startActiveSpan('rest request', async (span: Span) => {
      const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent') }));
      span.end();
      return { taskId, traceId: span.spanContext().traceId };
    });
    await client.heartbeat(runtimeId, DAEMON);
    const claim = { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey };

    // Outside any trace, as a daemon's poll without an SDK would send it.
    const claimed = await client.send('task.claim', claim, 'claim-in-the-task-trace');
    const replayed = await client.send('task.claim', claim, 'claim-in-the-task-trace');

    const spans = exporter.getFinishedSpans();
    const enqueue = spans.find((span) => span.name === 'handle task.enqueue');
    const claimSpan = spans.find((span) => span.name === 'claim task');
    expect(enqueue?.spanContext().traceId).toBe(request.traceId);
    expect(claimSpan).toMatchObject({ attributes: expect.objectContaining({ 'switchyard.task.id': request.taskId }), links: [] });
    expect(claimSpan?.parentSpanContext?.spanId).toBe(enqueue?.spanContext().spanId);
    const traceparent = `00-${request.traceId}-${claimSpan?.spanContext().spanId}-01`;
    expect(claimed).toMatchObject({ ok: true, result: { tasks: [{ taskId: request.taskId, traceContext: { traceparent } }] } });
    expect(replayed).toEqual({ ...claimed, alreadyApplied: true });
    const stored = await client.query<{ type: string; traceparent: string }>("select type, headers->>'traceparent' as traceparent from outbox_event where aggregate_id = $1 order by version", [request.taskId]);
    expect(stored).toEqual([
      { type: 'task.enqueued', traceparent: `00-${request.traceId}-${enqueue?.spanContext().spanId}-01` },
      { type: 'task.claimed', traceparent },
    ]);
  });
});
