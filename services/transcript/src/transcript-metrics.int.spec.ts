import { Client } from 'pg';
import { createEvent, messageIds, subjects } from '@switchyard/contracts';
import { publish, type MessagingConnection } from '@switchyard/messaging';
import { SWITCHYARD_METRICS } from '@switchyard/telemetry';
import { connectTestMessaging, scrapeMetrics, startServiceForTest, uniqueNamespace, type Scrape, type ServiceUnderTest } from '@switchyard/testing';
import { TIMELINE_TEST_DAEMON_ID as DAEMON_ID, seedAttemptHolder, waitFor } from './timeline-test.spec-helper';
import { transcriptApp } from './transcript.app';

const { projectorLagMessages, projectorLagSeconds } = SWITCHYARD_METRICS;

/**
 * The transcript's lag on `/metrics`, read from its durable consumer on real NATS at each scrape:
 * nothing waits before and after a projected timeline, and a message that cannot be projected yet
 * (its attempt has no holder, so the projector hands it back) shows as a backlog.
 */
describe('transcript metrics (real NATS + Postgres)', () => {
  let service: ServiceUnderTest;
  let connection: MessagingConnection;
  let database: Client;

  beforeAll(async () => {
    service = await startServiceForTest(transcriptApp, { database: true, env: { TRANSCRIPT_BATCH_MAX_WAIT_MS: '10', METRICS_PORT: '0' } });
    connection = await connectTestMessaging({ name: 'transcript-metrics-test', namespace: service.namespace });
    database = new Client({ connectionString: service.databaseUrl });
    await database.connect();
  });
  afterAll(async () => {
    await database?.end();
    await connection?.close();
    await service?.stop();
  });

  async function publishMessages(taskId: string, texts: readonly string[]): Promise<void> {
    for (const [seq, text] of texts.entries()) {
      const envelope = createEvent({ type: 'task.message', payload: { taskId, seq, attempt: 1, message: { type: 'text', text } } });
      await publish(connection, { subject: subjects.forEvent(envelope, DAEMON_ID), data: envelope, messageId: messageIds.taskMessage({ publisher: DAEMON_ID, taskId, seq }) });
    }
  }

  /** Scrapes until `accept` takes the scrape (acks reach the server a moment after the rows commit). */
  function scrapeUntil(accept: (scrape: Scrape) => boolean, description: string): Promise<Scrape> {
    return waitFor(async () => {
      const scrape = await scrapeMetrics(service.metricsUrl!);
      return accept(scrape) && scrape;
    }, { description });
  }

  it('reports no lag with nothing waiting, and the backlog of messages it cannot project yet', async () => {
    expect(service.metricsUrl).toBeDefined();
    const idle = await scrapeMetrics(service.metricsUrl!);
    expect([idle.value(projectorLagMessages.name, { service: 'transcript' }), idle.value(projectorLagSeconds.name)]).toEqual([0, 0]);

    const heldTask = uniqueNamespace('task');
    await seedAttemptHolder(database, { taskId: heldTask, attempt: 1, daemonId: DAEMON_ID });
    await publishMessages(heldTask, ['one', 'two', 'three']);
    await waitFor(async () => (await database.query('select 1 from task_message where task_id = $1', [heldTask])).rowCount === 3, { description: 'three rows' });
    const caughtUp = await scrapeUntil((scrape) => scrape.value(projectorLagMessages.name) === 0, 'no backlog');
    expect(caughtUp.value(projectorLagSeconds.name)).toBe(0);

    const unheldTask = uniqueNamespace('task');
    await publishMessages(unheldTask, ['not yet']);
    const behind = await scrapeUntil((scrape) => (scrape.value(projectorLagMessages.name) ?? 0) >= 1, 'a backlog of the unheld message');
    const lagSeconds = behind.value(projectorLagSeconds.name);
    expect(Number.isFinite(lagSeconds)).toBe(true);
    expect(lagSeconds).toBeGreaterThanOrEqual(0);
    expect([heldTask, unheldTask, DAEMON_ID, 'not yet'].filter((value) => behind.text.includes(value))).toEqual([]);
  });
});
