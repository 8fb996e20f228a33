import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { STREAM_CATALOG, subjects } from '@switchyard/contracts';
import { catalogStreamDefinitions, provisionStreams, type MessagingConnection } from '@switchyard/messaging';
import { deleteNamespaceStreams, readStream } from '@switchyard/messaging/testing';
import { createJsonLogger } from '@switchyard/service-kit';
import { uniqueNamespace, connectTestMessaging } from '@switchyard/testing';
import { sampleClaimedTask } from '../exec-env/exec-env.spec-helper';
import { TaskMessageOutbox } from '../outbox/task-message.outbox';
import { MAX_UNWRITTEN_MESSAGES, createTaskMessageWriter } from './task-message.writer';
import { taskMessageSanitizer } from './task-secrets';

const logger = createJsonLogger({ service: 'task-message-writer-test', level: 'fatal' });
const DAEMON_ID = 'daemon-writer-test';

describe('task message writer', () => {
  let directory: string;
  let connection: MessagingConnection;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'switchyard-writer-'));
    connection = await connectTestMessaging({ name: 'writer-test', namespace: uniqueNamespace() });
    await provisionStreams(connection, catalogStreamDefinitions());
  });
  afterEach(async () => {
    await deleteNamespaceStreams(connection);
    await connection.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('numbers a burst of messages from 0 and the stream holds each once, in order, redacted', async () => {
    // Given a task whose agent env holds a secret, and a burst larger than the unwritten window
    const task = sampleClaimedTask({ taskId: 'task-writer-burst' });
    const secret = 'sk-writer-test-secret-value-0123456789';
    const withSecret = { ...task, agent: { ...task.agent, env: { API_KEY: secret } } };
    const outbox = await TaskMessageOutbox.open({ directory, connection, logger });
    const writer = createTaskMessageWriter({ task: withSecret, publisher: DAEMON_ID, outbox, sanitize: taskMessageSanitizer(withSecret) });
    const total = MAX_UNWRITTEN_MESSAGES * 3;

    // When every message is written without the caller waiting on disk, then the timeline is closed
    for (let index = 0; index < total; index += 1) await writer.write({ type: 'text', text: `line ${index} ${secret}` });
    await writer.close();
    await outbox.drained(task.taskId);
    await outbox.stop();

    // Then seqs run 0..n-1 in stream order, and the secret never left the machine
    const stored = (await readStream(connection, STREAM_CATALOG.TASK_EVENTS.name)).filter((message) => message.subject === subjects.taskEvent({ type: 'task.message', taskId: task.taskId, publisher: DAEMON_ID }));
    const payloads = stored.map((message) => (JSON.parse(message.text) as { payload: { seq: number; message: { text: string } } }).payload);
    expect(writer.count).toBe(total);
    expect(payloads.map((payload) => payload.seq)).toEqual(Array.from({ length: total }, (_, seq) => seq));
    expect(payloads.every((payload) => !payload.message.text.includes(secret))).toBe(true);
  });

  it('fails the next write and the close once the outbox cannot take a message', async () => {
    // Given a writer whose outbox has stopped
    const task = sampleClaimedTask({ taskId: 'task-writer-stopped' });
    const outbox = await TaskMessageOutbox.open({ directory, connection, logger });
    const writer = createTaskMessageWriter({ task, publisher: DAEMON_ID, outbox, sanitize: taskMessageSanitizer(task) });
    await outbox.stop();

    // When a message is written, then the failure surfaces, at the latest when the timeline closes
    await writer.write({ type: 'text', text: 'too late' }).catch(() => undefined);
    await expect(writer.close()).rejects.toThrow('the outbox is stopping');
    await expect(writer.write({ type: 'text', text: 'later still' })).rejects.toThrow('the outbox is stopping');
  });
});
