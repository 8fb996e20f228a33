import { context as otelContext, propagation, ROOT_CONTEXT, SpanKind, TraceFlags, trace, type Span } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { HEADERS } from '@switchyard/contracts';
import { SPAN_ATTRIBUTES } from '@switchyard/telemetry';
import { connectTestMessaging, uniqueNamespace } from '@switchyard/testing';
import type { MessagingConnection } from '../connection/messaging.connection';
import { startConsumer, type RunningConsumer } from '../consuming/jetstream.consumer';
import type { StreamDefinition } from '../provisioning/stream.definitions';
import { provisionStreams } from '../provisioning/stream.provisioner';
import { publish } from '../publishing/jetstream.publisher';
import { sendCommand } from '../request-reply/command.client';
import { serveRequests } from '../request-reply/request-reply';
import { flushConnection } from '../testing-support/collect-notices';
import { deleteNamespaceStreams } from '../testing-support/namespace-cleanup';
import { readStream } from '../testing-support/read-stream';
import { waitFor } from '../testing-support/wait-for';

const streams: StreamDefinition[] = [{ name: 'TASKS', subjects: ['task.>'], storage: 'memory' }];
const tracer = trace.getTracer('messaging-spans-test');

/**
 * The messaging layer's spans, with a real SDK recording to memory and a real NATS: a publish or a
 * request inside a trace is a PRODUCER / CLIENT span whose context the message carries, and the
 * consumer or responder works in a CONSUMER / SERVER span under it; traffic outside any trace
 * starts no span. Without an SDK, messages carry the caller's context exactly as before.
 */
describe('messaging spans', () => {
  const namespace = uniqueNamespace();
  const running: RunningConsumer[] = [];
  let connection: MessagingConnection;
  let consumerIndex = 0;

  /** Starts a consumer of `task.<type>.<taskId>.*` and collects what its handler sees. */
  async function consume(taskId: string): Promise<Array<{ readonly body: unknown; readonly activeSpanId: string | undefined }>> {
    consumerIndex += 1;
    const received: Array<{ body: unknown; activeSpanId: string | undefined }> = [];
    running.push(
      await startConsumer(connection, {
        consumer: { stream: 'TASKS', name: `spans-${consumerIndex}`, filterSubjects: [`task.*.${taskId}.*`], ackWaitMs: 2_000, maxDeliver: 3 },
        handler: (body) => {
          received.push({ body, activeSpanId: trace.getActiveSpan()?.spanContext().spanId });
          return Promise.resolve();
        },
      }),
    );
    return received;
  }

  beforeAll(async () => {
    connection = await connectTestMessaging({ name: 'messaging-spans-int', namespace });
    await provisionStreams(connection, streams);
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((consumer) => consumer.stop()));
  });

  afterAll(async () => {
    await deleteNamespaceStreams(connection);
    await connection.close();
  });

  describe('without an SDK', () => {
    it('puts the given trace context in the message headers as it is', async () => {
      const parent = { traceId: '6bf92f3577b34da6a3ce929d0e0e4736', spanId: '20f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };

      await publish(connection, { subject: 'task.enqueued.no-sdk.queue', data: { taskId: 'no-sdk' }, messageId: 'no-sdk:1', traceContext: trace.setSpanContext(ROOT_CONTEXT, parent) });

      const [stored] = (await readStream(connection, 'TASKS')).filter((message) => message.subject === 'task.enqueued.no-sdk.queue');
      expect(stored?.headers[HEADERS.traceparent]).toBe(`00-${parent.traceId}-${parent.spanId}-01`);
    });
  });

  describe('with an SDK', () => {
    const exporter = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

    const finished = (name: string): ReadableSpan[] => exporter.getFinishedSpans().filter((span) => span.name === name);
    const parentOf = (span: ReadableSpan | undefined): string | undefined => span?.parentSpanContext?.spanId;

    beforeAll(() => {
      provider.register();
    });

    afterEach(() => {
      exporter.reset();
    });

    afterAll(async () => {
      await provider.shutdown();
      trace.disable();
      otelContext.disable();
      propagation.disable();
    });

    it('makes a publish inside a trace a producer span, and its consumption a consumer span under it in which the handler runs', async () => {
      const received = await consume('traced');

      const root = await tracer.startActiveSpan('rest request', async (span: Span) => {
        await publish(connection, { subject: 'task.message.traced.daemon-1', data: { seq: 0 }, messageId: 'traced:0' });
        span.end();
        return span;
      });
      await waitFor(() => received.length === 1 && finished('process task.message').length === 1, { description: 'the consumed message' });

      const [producer] = finished('publish task.message');
      const [consumer] = finished('process task.message');
      expect(producer).toMatchObject({ kind: SpanKind.PRODUCER, attributes: expect.objectContaining({ [SPAN_ATTRIBUTES.taskId]: 'traced', [SPAN_ATTRIBUTES.destinationTemplate]: 'task.message', [SPAN_ATTRIBUTES.messagingSystem]: 'nats' }) });
      expect(parentOf(producer)).toBe(root.spanContext().spanId);
      expect(consumer).toMatchObject({ kind: SpanKind.CONSUMER, attributes: expect.objectContaining({ [SPAN_ATTRIBUTES.taskId]: 'traced', [SPAN_ATTRIBUTES.consumerGroup]: expect.stringMatching(/^spans-/) }) });
      expect(consumer?.spanContext().traceId).toBe(root.spanContext().traceId);
      expect(parentOf(consumer)).toBe(producer?.spanContext().spanId);
      expect(received[0]?.activeSpanId).toBe(consumer?.spanContext().spanId);
    });

    it('makes an explicit context (a relayed event’s) the publish span’s parent, whatever is active', async () => {
      const received = await consume('relayed');
      const stored = { traceId: '7bf92f3577b34da6a3ce929d0e0e4736', spanId: '30f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED, isRemote: true };

      await tracer.startActiveSpan('relay poll', async (span: Span) => {
        await publish(connection, { subject: 'task.enqueued.relayed.queue', data: {}, messageId: 'relayed:1', traceContext: trace.setSpanContext(ROOT_CONTEXT, stored) });
        span.end();
      });
      await waitFor(() => received.length === 1, { description: 'the consumed message' });

      const [producer] = finished('publish task.enqueued');
      expect(producer?.spanContext().traceId).toBe(stored.traceId);
      expect(parentOf(producer)).toBe(stored.spanId);
    });

    it('starts no span for a publish outside any trace, nor for its consumption, and still runs the handler', async () => {
      const received = await consume('untraced');

      await publish(connection, { subject: 'task.message.untraced.daemon-1', data: { seq: 0 }, messageId: 'untraced:0' });
      await waitFor(() => received.length === 1, { description: 'the consumed message' });

      expect(received[0]?.activeSpanId).toBeUndefined();
      expect(exporter.getFinishedSpans()).toEqual([]);
    });

    it('makes a command inside a trace a client span naming its task, and its handling a server span under it', async () => {
      let handlerSpanId: string | undefined;
      const server = serveRequests(connection, {
        subject: 'cmd.task.cancel',
        queueGroup: 'queue',
        handler: (envelope: { payload: { taskId: string } }) => {
          handlerSpanId = trace.getActiveSpan()?.spanContext().spanId;
          return Promise.resolve({ taskId: envelope.payload.taskId, state: 'cancelled' });
        },
      });
      await flushConnection(connection);
      try {
        const reply = await tracer.startActiveSpan('rest request', async (span: Span) => {
          const answer = await sendCommand(connection, { command: 'task.cancel', payload: { taskId: 'cancelled-task', requestedBy: { kind: 'user', id: 'u1' }, reason: null } });
          span.end();
          return answer;
        });
        expect(reply).toMatchObject({ ok: true, result: { taskId: 'cancelled-task' } });
      } finally {
        await server.stop();
      }

      const [client] = finished('request task.cancel');
      const [handler] = finished('handle task.cancel');
      expect(client).toMatchObject({ kind: SpanKind.CLIENT, attributes: expect.objectContaining({ [SPAN_ATTRIBUTES.taskId]: 'cancelled-task', [SPAN_ATTRIBUTES.command]: 'task.cancel' }) });
      expect(handler).toMatchObject({ kind: SpanKind.SERVER, attributes: expect.objectContaining({ [SPAN_ATTRIBUTES.command]: 'task.cancel' }) });
      expect(parentOf(handler)).toBe(client?.spanContext().spanId);
      expect(handlerSpanId).toBe(handler?.spanContext().spanId);
    });

    it('starts no span for a request outside any trace', async () => {
      const server = serveRequests(connection, { subject: 'cmd.task.cancel', queueGroup: 'queue', handler: () => Promise.resolve({ taskId: 'untraced-task', state: 'cancelled' }) });
      await flushConnection(connection);
      try {
        const reply = await sendCommand(connection, { command: 'task.cancel', payload: { taskId: 'untraced-task', requestedBy: { kind: 'user', id: 'u1' }, reason: null } });
        expect(reply.ok).toBe(true);
      } finally {
        await server.stop();
      }

      expect(exporter.getFinishedSpans()).toEqual([]);
    });
  });
});
