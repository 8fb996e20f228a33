import { ROOT_CONTEXT, TraceFlags, context as otelContext, trace } from '@opentelemetry/api';
import { uniqueNamespace, connectTestMessaging } from '@switchyard/testing';
import { HEADERS } from '@switchyard/contracts';
import { withMessagingLogger, type MessagingConnection } from '../connection/messaging.connection';
import { PermanentError } from '../errors/messaging.errors';
import { DEAD_LETTER_STREAM_NAME, deadLetterStreamDefinition, type ConsumerDefinition, type StreamDefinition } from '../provisioning/stream.definitions';
import { provisionStreams } from '../provisioning/stream.provisioner';
import { publish } from '../publishing/jetstream.publisher';
import { AsyncLocalContextManager } from '../testing-support/async-local-context.manager';
import { deleteNamespaceStreams } from '../testing-support/namespace-cleanup';
import { readStream } from '../testing-support/read-stream';
import { waitFor } from '../testing-support/wait-for';
import { startConsumer, type DeliveryContext, type RunningConsumer } from './jetstream.consumer';
import type { DeadLetterEvent } from './dead-letter.publisher';
import { closeConnectionAbruptly, consumerState } from '../testing-support/consumer-state';
import { deleteDurableConsumer } from './durable-consumer';
import { publishRawMessage } from '../testing-support/raw-messages';

const streams: StreamDefinition[] = [
  { name: 'TASKS', subjects: ['task.>'], storage: 'memory' },
  deadLetterStreamDefinition({ storage: 'memory' }),
];

interface Received {
  readonly body: unknown;
  readonly delivery: DeliveryContext;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

describe('startConsumer against nats-server', () => {
  const namespace = uniqueNamespace();
  const running: RunningConsumer[] = [];
  const extraConnections: MessagingConnection[] = [];
  let connection: MessagingConnection;
  let testIndex = 0;

  /** A consumer of its own per test, filtered to its own subjects. */
  function consumerFor(overrides: Partial<ConsumerDefinition> = {}): { definition: ConsumerDefinition; subject: (tail: string) => string } {
    testIndex += 1;
    const key = `case${testIndex}`;
    return {
      definition: { stream: 'TASKS', name: `worker-${key}`, filterSubjects: [`task.${key}.>`], ackWaitMs: 2_000, maxDeliver: 3, ...overrides },
      subject: (tail) => `task.${key}.${tail}`,
    };
  }

  async function deadLetters(consumer: string): Promise<Awaited<ReturnType<typeof readStream>>> {
    return (await readStream(connection, DEAD_LETTER_STREAM_NAME)).filter((entry) => entry.headers[HEADERS.deadLetterConsumer] === consumer);
  }

  beforeAll(async () => {
    connection = await connectTestMessaging({ name: 'consumer-int', namespace });
    await provisionStreams(connection, streams);
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((consumer) => consumer.stop()));
  });

  afterAll(async () => {
    await deleteNamespaceStreams(connection);
    await connection.close();
    await Promise.all(extraConnections.map((extra) => extra.close()));
  });

  it('hands the decoded message, delivery info and the publisher trace context to the handler', async () => {
    const contextManager = new AsyncLocalContextManager();
    otelContext.setGlobalContextManager(contextManager);
    try {
      const { definition, subject } = consumerFor();
      const received: Received[] = [];
      let activeTraceId: string | undefined;
      running.push(
        await startConsumer<{ taskId: string }>(connection, {
          consumer: definition,
          handler: async (body, delivery) => {
            activeTraceId = trace.getSpanContext(otelContext.active())?.traceId;
            received.push({ body, delivery });
            return Promise.resolve();
          },
        }),
      );
      const spanContext = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };

      await otelContext.with(trace.setSpanContext(ROOT_CONTEXT, spanContext), () =>
        publish(connection, { subject: subject('t1'), data: { taskId: 't1' }, messageId: 't1:1', headers: { [HEADERS.eventType]: 'task.enqueued' } }),
      );
      const [first] = await waitFor(() => received.length === 1 && received, { description: 'delivery' });

      expect(first?.body).toEqual({ taskId: 't1' });
      expect(first?.delivery).toMatchObject({
        subject: subject('t1'),
        stream: 'TASKS',
        consumer: definition.name,
        deliveryCount: 1,
        maxDeliver: 3,
        messageId: 't1:1',
      });
      expect(first?.delivery.headers[HEADERS.eventType]).toBe('task.enqueued');
      expect(trace.getSpanContext(first?.delivery.traceContext ?? ROOT_CONTEXT)).toMatchObject({ traceId: spanContext.traceId, isRemote: true });
      expect(activeTraceId).toBe(spanContext.traceId);
    } finally {
      otelContext.disable();
    }
  });

  it('redelivers a failing message with backoff, dead-letters it after max_deliver, and keeps going', async () => {
    const { definition, subject } = consumerFor({ maxDeliver: 3, backoffMs: [100, 200] });
    const attempts: number[] = [];
    const processed: string[] = [];
    const deadLettered: DeadLetterEvent[] = [];
    running.push(
      await startConsumer<{ kind: string }>(connection, {
        consumer: definition,
        onDeadLetter: (event) => deadLettered.push(event),
        handler: async (body, delivery) => {
          if (body.kind === 'poison') {
            attempts.push(delivery.deliveryCount);
            throw new Error('projection failed');
          }
          processed.push(body.kind);
          return Promise.resolve();
        },
      }),
    );

    await publish(connection, { subject: subject('t2'), data: { kind: 'poison' }, messageId: 't2:1' });
    await publish(connection, { subject: subject('t2'), data: { kind: 'healthy' }, messageId: 't2:2' });
    const [letter] = await waitFor(async () => {
      const letters = await deadLetters(definition.name);
      return letters.length === 1 && letters;
    }, { description: 'dead letter' });

    expect(attempts).toEqual([1, 2, 3]);
    expect(letter?.subject).toBe(`dlq.TASKS.${definition.name}`);
    expect(letter?.text).toBe('{"kind":"poison"}');
    expect(letter?.headers).toMatchObject({
      [HEADERS.deadLetterStream]: 'TASKS',
      [HEADERS.deadLetterConsumer]: definition.name,
      [HEADERS.deadLetterSubject]: subject('t2'),
      [HEADERS.deadLetterDeliveries]: '3',
    });
    expect(letter?.headers[HEADERS.deadLetterReason]).toMatch(/^max_deliver_exceeded: Error: projection failed/);
    expect(deadLettered).toMatchObject([{ reason: 'max_deliver_exceeded', deliveries: 3 }]);
    await waitFor(() => processed.includes('healthy'), { description: 'next message processed' });

    await publish(connection, { subject: subject('t2'), data: { kind: 'after' }, messageId: 't2:3' });
    await waitFor(() => processed.includes('after'), { description: 'message after the dead letter' });
  });

  it('dead-letters permanent errors and undecodable payloads on the first delivery', async () => {
    const { definition, subject } = consumerFor({ maxDeliver: 5 });
    const calls: unknown[] = [];
    running.push(
      await startConsumer<{ kind: string }>(connection, {
        consumer: definition,
        handler: async (body) => {
          calls.push(body);
          if (body.kind === 'invalid') throw new PermanentError('task does not exist');
          return Promise.resolve();
        },
      }),
    );

    await publish(connection, { subject: subject('t3'), data: { kind: 'invalid' }, messageId: 't3:1' });
    await publish(connection, { subject: subject('t3'), data: new TextEncoder().encode('{not json'), messageId: 't3:2' });
    const letters = await waitFor(async () => {
      const found = await deadLetters(definition.name);
      return found.length === 2 && found;
    }, { description: 'two dead letters' });

    expect(letters.map((letter) => letter.headers[HEADERS.deadLetterReason]?.split(':')[0]).sort()).toEqual(['decode_failed', 'permanent_error']);
    expect(letters.map((letter) => letter.headers[HEADERS.deadLetterDeliveries])).toEqual(['1', '1']);
    expect(calls).toEqual([{ kind: 'invalid' }]);
  });

  it('dead-letters a non-JSON and an empty body to dlq.<stream>.<consumer> with the reason, and goes on', async () => {
    const { definition, subject } = consumerFor({ maxDeliver: 5 });
    const handled: unknown[] = [];
    running.push(await startConsumer<{ kind: string }>(connection, { consumer: definition, handler: async (body) => void handled.push(await Promise.resolve(body)) }));

    await publish(connection, { subject: subject('garbled'), data: new TextEncoder().encode('not json {'), messageId: 'garbled:1' });
    await publish(connection, { subject: subject('empty'), data: new Uint8Array(0), messageId: 'empty:1' });
    await publish(connection, { subject: subject('after'), data: { kind: 'after' }, messageId: 'after:1' });
    const letters = await waitFor(async () => {
      const found = await deadLetters(definition.name);
      return found.length === 2 && found;
    }, { description: 'two dead letters' });
    await waitFor(() => handled.length === 1, { description: 'the message after them' });

    expect(letters.map((letter) => ({ subject: letter.subject, reason: letter.headers[HEADERS.deadLetterReason]?.split(':')[0], origin: letter.headers[HEADERS.deadLetterSubject], text: letter.text }))).toEqual([
      { subject: `dlq.TASKS.${definition.name}`, reason: 'decode_failed', origin: subject('garbled'), text: 'not json {' },
      { subject: `dlq.TASKS.${definition.name}`, reason: 'decode_failed', origin: subject('empty'), text: '' },
    ]);
    expect(handled).toEqual([{ kind: 'after' }]);
    await waitFor(async () => (await consumerState(connection, { stream: 'TASKS', name: definition.name })).ackPending === 0, { description: 'nothing left to redeliver' });
  });

  it('handles a message whose headers nats.js cannot parse as one without headers, instead of handing it back forever', async () => {
    const { definition, subject } = consumerFor({ maxDeliver: 5 });
    const warnings: Array<{ subject: unknown; message: string }> = [];
    const watched = withMessagingLogger(connection, {
      debug: () => undefined,
      info: () => undefined,
      warn: (fields, message) => warnings.push({ subject: fields['subject'], message }),
      error: () => undefined,
    });
    const handled: Array<{ body: unknown; headers: Readonly<Record<string, string>> }> = [];
    running.push(await startConsumer<{ kind: string }>(watched, { consumer: definition, handler: async (body, delivery) => void handled.push(await Promise.resolve({ body, headers: delivery.headers })) }));

    publishRawMessage(connection, { subject: subject('odd-headers'), text: '{"kind":"odd"}', unreadableHeader: true });
    await waitFor(() => handled.length === 1, { description: 'the message handled' });

    expect(handled).toEqual([{ body: { kind: 'odd' }, headers: {} }]);
    expect(warnings).toContainEqual({ subject: subject('odd-headers'), message: 'unreadable message headers ignored' });
    await waitFor(async () => (await consumerState(connection, { stream: 'TASKS', name: definition.name })).ackPending === 0, { description: 'acked' });
  });

  it('redelivers to a new instance a message whose consumer died before acking', async () => {
    const { definition, subject } = consumerFor({ ackWaitMs: 1_000, maxDeliver: 5 });
    const doomedConnection = await connectTestMessaging({ name: 'consumer-int-doomed', namespace });
    extraConnections.push(doomedConnection);
    const handlerStarted = deferred();
    const releaseDoomed = deferred();
    const firstDeliveries: DeliveryContext[] = [];
    const doomed = await startConsumer(doomedConnection, {
      consumer: definition,
      handler: async (_body, delivery) => {
        firstDeliveries.push(delivery);
        handlerStarted.resolve();
        await releaseDoomed.promise;
      },
    });
    const publishedAfter = Date.now();
    await publish(connection, { subject: subject('t4'), data: { taskId: 't4' }, messageId: 't4:1' });
    await handlerStarted.promise;

    await closeConnectionAbruptly(doomedConnection);
    const received: DeliveryContext[] = [];
    running.push(
      await startConsumer(connection, {
        consumer: definition,
        handler: async (_body, delivery) => {
          received.push(delivery);
          return Promise.resolve();
        },
      }),
    );
    const [redelivered] = await waitFor(() => received.length === 1 && received, { description: 'redelivery' });

    expect(redelivered).toMatchObject({ messageId: 't4:1', deliveryCount: 2 });
    // The server's storage time, the same on every delivery (the test's clock is the server's host).
    expect(redelivered?.storedAt.getTime()).toBe(firstDeliveries[0]?.storedAt.getTime());
    expect(redelivered?.storedAt.getTime()).toBeGreaterThanOrEqual(publishedAfter - 1_000);
    releaseDoomed.resolve();
    await doomed.stop();
  });

  it('does not redeliver while a long handler reports working()', async () => {
    const { definition, subject } = consumerFor({ ackWaitMs: 300, maxDeliver: 5 });
    const deliveries: number[] = [];
    let heartbeats = 0;
    running.push(
      await startConsumer(connection, {
        consumer: definition,
        handler: async (_body, delivery) => {
          deliveries.push(delivery.deliveryCount);
          // Work for several ack-wait periods, reporting progress well inside each one.
          while (heartbeats < 12) {
            await new Promise((resolve) => setTimeout(resolve, 75));
            delivery.working();
            heartbeats += 1;
          }
        },
      }),
    );

    await publish(connection, { subject: subject('t5'), data: {}, messageId: 't5:1' });
    await waitFor(() => heartbeats >= 12, { description: 'long handler finished' });
    const info = await waitFor(async () => {
      const current = await consumerState(connection, { stream: 'TASKS', name: definition.name });
      return current.ackPending === 0 && current;
    }, { description: 'ack recorded' });

    expect(deliveries).toEqual([1]);
    expect(info.redelivered).toBe(0);
  });

  it('keeps per-subject order with several handlers running at once', async () => {
    const { definition, subject } = consumerFor({ maxAckPending: 100 });
    const seen = new Map<string, number[]>();
    running.push(
      await startConsumer<{ index: number }>(connection, {
        consumer: definition,
        concurrency: 4,
        handler: async (body, delivery) => {
          // Yield so handlers genuinely interleave across subjects.
          await new Promise((resolve) => setImmediate(resolve));
          seen.set(delivery.subject, [...(seen.get(delivery.subject) ?? []), body.index]);
        },
      }),
    );
    const subjects = [subject('a'), subject('b'), subject('c')];
    const count = 30;

    for (let index = 0; index < count; index += 1) {
      const target = subjects[index % subjects.length] ?? subjects[0];
      await publish(connection, { subject: target ?? '', data: { index }, messageId: `order:${index}` });
    }
    await waitFor(() => [...seen.values()].reduce((total, list) => total + list.length, 0) === count, { description: 'all messages' });

    for (const [position, target] of subjects.entries()) {
      const expected = Array.from({ length: count }, (_, index) => index).filter((index) => index % subjects.length === position);
      expect(seen.get(target)).toEqual(expected);
    }
  });

  it('stop() waits for the handler in flight and acks its message', async () => {
    const { definition, subject } = consumerFor();
    const events: string[] = [];
    const handlerStarted = deferred();
    const releaseHandler = deferred();
    const consumer = await startConsumer(connection, {
      consumer: definition,
      handler: async () => {
        handlerStarted.resolve();
        await releaseHandler.promise;
        events.push('handler finished');
      },
    });
    await publish(connection, { subject: subject('t6'), data: {}, messageId: 't6:1' });
    await handlerStarted.promise;

    const stopping = consumer.stop().then(() => events.push('stopped'));
    releaseHandler.resolve();
    await stopping;

    expect(events).toEqual(['handler finished', 'stopped']);
    // The server applies acks asynchronously, so wait for it to record this one.
    const info = await waitFor(async () => {
      const current = await consumerState(connection, { stream: 'TASKS', name: definition.name });
      return current.ackPending === 0 && current;
    }, { description: 'ack recorded' });
    expect(info.pending).toBe(0);
    expect(info.deliveredStreamSequence).toBe(info.ackFloorStreamSequence);
  });

  // startConsumer returns while its first pull is still being set up: a stop then used to wait
  // forever for that pull to be drained by a loop that had not started (a gateway's shutdown hung).
  it('stop() right after the start returns, and the next instance gets what was published', async () => {
    const { definition, subject } = consumerFor();
    const first: unknown[] = [];
    const early = await startConsumer(connection, { consumer: definition, handler: (body) => Promise.resolve(void first.push(body)) });
    await early.stop();

    await publish(connection, { subject: subject('t8'), data: { n: 1 }, messageId: 't8:1' });
    const received: unknown[] = [];
    running.push(await startConsumer(connection, { consumer: definition, handler: (body) => Promise.resolve(void received.push(body)) }));
    await waitFor(() => received.length === 1, { description: 'message to the next instance' });
    expect({ first, received }).toEqual({ first: [], received: [{ n: 1 }] });
  });

  it('recreates a deleted consumer and continues', async () => {
    const { definition, subject } = consumerFor();
    const received: unknown[] = [];
    const warnings: string[] = [];
    const watched = withMessagingLogger(connection, { ...connection.logger, warn: (_details: object, message: string) => warnings.push(message) });
    running.push(
      await startConsumer(watched, {
        consumer: definition,
        handler: async (body) => {
          received.push(body);
          return Promise.resolve();
        },
      }),
    );
    await publish(connection, { subject: subject('t7'), data: { n: 1 }, messageId: 't7:1' });
    await waitFor(() => received.length === 1, { description: 'first message' });

    await deleteDurableConsumer(connection, { stream: 'TASKS', name: definition.name });
    await publish(connection, { subject: subject('t7'), data: { n: 2 }, messageId: 't7:2' });

    await waitFor(() => received.some((body) => JSON.stringify(body) === '{"n":2}'), { description: 'message after recreation', timeoutMs: 20_000 });
    expect(warnings).toContain('consumer disappeared; recreating');
  });
});
