import { uniqueNamespace, connectTestMessaging } from '@switchyard/testing';
import { HEADERS } from '@switchyard/contracts';
import { checkNatsReady, type MessagingConnection } from '../connection/messaging.connection';
import { MESSAGING_ERROR_CODES, MessagingNotReadyError, PublishError } from '../errors/messaging.errors';
import type { ConsumerDefinition, StreamDefinition } from '../provisioning/stream.definitions';
import { provisionConsumers, provisionStreams } from '../provisioning/stream.provisioner';
import { deleteNamespaceStreams } from '../testing-support/namespace-cleanup';
import { readStream } from '../testing-support/read-stream';
import { publish } from './jetstream.publisher';
import { consumerState } from '../testing-support/consumer-state';

const tasks: StreamDefinition = { name: 'TASKS', subjects: ['task.>'], storage: 'memory', duplicateWindowMs: 60_000 };
const worker: ConsumerDefinition = { stream: 'TASKS', name: 'worker', ackWaitMs: 2_000, maxDeliver: 3, backoffMs: [200, 400] };

describe('publishing and provisioning against nats-server', () => {
  let connection: MessagingConnection;

  beforeAll(async () => {
    connection = await connectTestMessaging({ name: 'publisher-int', namespace: uniqueNamespace() });
  });

  afterAll(async () => {
    await deleteNamespaceStreams(connection);
    await connection.close();
  });

  it('provisions streams and consumers idempotently and updates changed config', async () => {
    expect(await provisionStreams(connection, [tasks])).toEqual([{ name: 'TASKS', action: 'created' }]);
    expect(await provisionStreams(connection, [tasks])).toEqual([{ name: 'TASKS', action: 'unchanged' }]);
    expect(await provisionConsumers(connection, [worker])).toEqual([{ name: 'TASKS/worker', action: 'created' }]);
    expect(await provisionConsumers(connection, [worker])).toEqual([{ name: 'TASKS/worker', action: 'unchanged' }]);

    expect(await provisionStreams(connection, [{ ...tasks, maxMessages: 10_000 }])).toEqual([{ name: 'TASKS', action: 'updated' }]);
    expect(await provisionConsumers(connection, [{ ...worker, maxDeliver: 4 }])).toEqual([{ name: 'TASKS/worker', action: 'updated' }]);
    expect((await consumerState(connection, { stream: 'TASKS', name: 'worker' })).maxDeliver).toBe(4);
  });

  it('stores a message once when the same message id is published twice', async () => {
    await provisionStreams(connection, [tasks]);
    const message = { subject: 'task.enqueued.dedupe', data: { taskId: 'dedupe' }, messageId: 'dedupe:1' };

    const first = await publish(connection, message);
    const second = await publish(connection, message);

    expect(first).toMatchObject({ stream: 'TASKS', duplicate: false });
    expect(second).toEqual({ stream: 'TASKS', seq: first.seq, duplicate: true });
    const stored = (await readStream(connection, 'TASKS')).filter((entry) => entry.subject === 'task.enqueued.dedupe');
    expect(stored).toHaveLength(1);
    expect(stored[0]?.headers[HEADERS.messageId]).toBe('dedupe:1');
  });

  it('surfaces wrong-last-sequence as a non-retryable typed error without retrying', async () => {
    await provisionStreams(connection, [tasks]);
    await publish(connection, { subject: 'task.message.seq', data: 'first', messageId: 'seq:1' });

    const rejected = publish(connection, {
      subject: 'task.message.seq',
      data: 'second',
      messageId: 'seq:2',
      expect: { lastSubjectSequence: 999_999 },
    });

    await expect(rejected).rejects.toBeInstanceOf(PublishError);
    await expect(rejected).rejects.toMatchObject({ code: MESSAGING_ERROR_CODES.wrongLastSequence, isRetryable: false, attempts: 1 });
  });

  it('retries a subject no stream listens on, then fails as retryable', async () => {
    const failing = publish(connection, {
      subject: 'nobody.listens',
      data: {},
      messageId: 'orphan:1',
      timeoutMs: 500,
      retry: { maxAttempts: 2, initialDelayMs: 10, maximumDelayMs: 10 },
    });

    await expect(failing).rejects.toMatchObject({ code: MESSAGING_ERROR_CODES.publishFailed, isRetryable: true, attempts: 2 });
  });

  it('requires a message id', async () => {
    await expect(publish(connection, { subject: 'task.x', data: {}, messageId: ' ' })).rejects.toMatchObject({
      code: MESSAGING_ERROR_CODES.publishRejected,
    });
  });

  it('reports readiness, and not-ready once closed', async () => {
    await expect(checkNatsReady(connection)).resolves.toBeUndefined();
    const other = await connectTestMessaging({ name: 'publisher-int-closed' });
    await other.close();

    await expect(checkNatsReady(other)).rejects.toBeInstanceOf(MessagingNotReadyError);
    await other.close();
  });
});
