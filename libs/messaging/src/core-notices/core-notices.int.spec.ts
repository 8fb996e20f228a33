import { testNatsUrl, uniqueNamespace } from '@switchyard/testing';
import { connectMessaging, type MessagingConnection } from '../connection/messaging.connection';
import type { StreamDefinition } from '../provisioning/stream.definitions';
import { provisionStreams } from '../provisioning/stream.provisioner';
import { publish } from '../publishing/jetstream.publisher';
import { firstStoredMessage, openOrderedReplay } from '../replay/ordered-replay';
import { deleteNamespaceStreams } from '../testing-support/namespace-cleanup';
import { publishNotice, subscribeNotices, type Notice } from './core-notices';
import { flushConnection, publishRawNotice } from '../testing-support/collect-notices';

const events: StreamDefinition = { name: 'EVENTS', subjects: ['event.>'], storage: 'memory', duplicateWindowMs: 60_000 };

describe('core notices and stream replay (real nats-server)', () => {
  let connection: MessagingConnection;
  const warnings: string[] = [];

  beforeAll(async () => {
    connection = await connectMessaging({
      url: testNatsUrl(),
      name: 'core-notices-int',
      namespace: uniqueNamespace(),
      logger: { debug: () => undefined, info: () => undefined, warn: (_fields: object, message: string) => warnings.push(message), error: () => undefined },
    });
    await provisionStreams(connection, [events]);
  });
  afterAll(async () => {
    await deleteNamespaceStreams(connection);
    await connection.close();
  });

  it('delivers notices by their logical subject, and a poison one neither ends the subscription nor throws', async () => {
    const received: Array<{ subject: string; value: unknown }> = [];
    const subscription = subscribeNotices(connection, {
      subject: 'notify.probe.*',
      max: 3,
      onNotice: (notice: Notice) => {
        received.push({ subject: notice.subject, value: JSON.parse(notice.text) });
      },
    });
    await flushConnection(connection);
    publishNotice(connection, 'notify.probe.a', { n: 1 });
    publishRawNotice(connection, 'notify.probe.b', 'not json {');
    publishNotice(connection, 'notify.probe.c', { n: 3 });
    await subscription.closed;

    expect(received).toEqual([
      { subject: 'notify.probe.a', value: { n: 1 } },
      { subject: 'notify.probe.c', value: { n: 3 } },
    ]);
    expect(warnings).toEqual(['notice dropped']);
  });

  it('sends a bare nudge as an empty message, and stops at max', async () => {
    const texts: string[] = [];
    const subscription = subscribeNotices(connection, { subject: 'notify.nudge', max: 1, onNotice: (notice) => void texts.push(notice.text) });
    await flushConnection(connection);
    publishNotice(connection, 'notify.nudge');
    await subscription.closed;
    expect(texts).toEqual(['']);
  });

  it('replays a subject from the start of the stream in order, then live; finds its first stored message', async () => {
    for (const n of [1, 2]) await publish(connection, { subject: 'event.other.x', data: { n }, messageId: `other:${n}` });
    for (const n of [1, 2, 3]) await publish(connection, { subject: 'event.task.t1', data: { n }, messageId: `t1:${n}` });

    const first = await firstStoredMessage(connection, { stream: 'EVENTS', subject: 'event.task.t1', fromSequence: 1 });
    expect(first?.json()).toEqual({ n: 1 });
    expect(await firstStoredMessage(connection, { stream: 'EVENTS', subject: 'event.task.none', fromSequence: 1 })).toBeUndefined();

    const replay = await openOrderedReplay(connection, { stream: 'EVENTS', subject: 'event.task.*' });
    const seen: unknown[] = [];
    for await (const message of replay.messages) {
      seen.push(message.json());
      if (seen.length === 3) await publish(connection, { subject: 'event.task.t1', data: { n: 4 }, messageId: 't1:4' });
      if (seen.length === 4) break;
    }
    await replay.close();
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
  });
});
