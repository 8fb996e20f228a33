import { Client } from 'pg';
import { createEvent, messageIds, subjects } from '@switchyard/contracts';
import { publish, type MessagingConnection } from '@switchyard/messaging';
import { describeServiceBoot, startServiceForTest, uniqueNamespace, type ServiceUnderTest, connectTestMessaging } from '@switchyard/testing';
import { TIMELINE_TEST_DAEMON_ID as DAEMON_ID, seedAttemptHolder, waitFor } from './timeline-test.spec-helper';
import { transcriptApp } from './transcript.app';

describeServiceBoot(transcriptApp, { database: true });

describe('transcript service', () => {
  let service: ServiceUnderTest;
  let connection: MessagingConnection;
  let database: Client;

  beforeAll(async () => {
    service = await startServiceForTest(transcriptApp, { database: true, env: { TRANSCRIPT_BATCH_MAX_WAIT_MS: '10' } });
    connection = await connectTestMessaging({ name: 'transcript-service-test', namespace: service.namespace });
    database = new Client({ connectionString: service.databaseUrl });
    await database.connect();
  });
  afterAll(async () => {
    await database?.end();
    await connection?.close();
    await service?.stop();
  });

  it('projects the task.message events daemons publish into the timeline, with its checkpoint', async () => {
    // Given a daemon holding a task's attempt and publishing its messages
    const taskId = uniqueNamespace('task');
    await seedAttemptHolder(database, { taskId, attempt: 1, daemonId: DAEMON_ID });
    for (const [seq, text] of ['one', 'two', 'three'].entries()) {
      const envelope = createEvent({ type: 'task.message', payload: { taskId, seq, attempt: 1, message: { type: 'text', text } } });
      await publish(connection, { subject: subjects.forEvent(envelope, DAEMON_ID), data: envelope, messageId: messageIds.taskMessage({ publisher: DAEMON_ID, taskId, seq }) });
    }
    // When the service has projected them
    const rows = await waitFor(
      async () => {
        const result = await database.query<{ seq: number; content: string }>('select seq, content from task_message where task_id = $1 order by seq', [taskId]);
        return result.rows.length === 3 && result.rows;
      },
      { description: 'three rows' },
    );
    // Then they are the timeline, and the checkpoint is stored beside them
    expect(rows).toEqual([
      { seq: 0, content: 'one' },
      { seq: 1, content: 'two' },
      { seq: 2, content: 'three' },
    ]);
    const checkpoint = await database.query<{ consumer_name: string; stream_sequence: string }>('select consumer_name, stream_sequence from consumer_checkpoint');
    expect(checkpoint.rows).toEqual([{ consumer_name: `${service.namespace}_transcript-timeline`, stream_sequence: '3' }]);
  });
});
