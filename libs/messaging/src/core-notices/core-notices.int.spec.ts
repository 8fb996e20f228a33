import { z } from 'zod';
import { uniqueNamespace, connectTestMessaging } from '@switchyard/testing';
import type { MessagingConnection } from '../connection/messaging.connection';
import type { StreamDefinition } from '../provisioning/stream.definitions';
import { provisionStreams } from '../provisioning/stream.provisioner';
import { publish } from '../publishing/jetstream.publisher';
import { firstStoredMessage, openOrderedReplay } from '../replay/ordered-replay';
import { deleteNamespaceStreams } from '../testing-support/namespace-cleanup';
import { decodeNotice, publishNotice, subscribeNotices, type Notice } from './core-notices';
import { flushConnection, publishRawNotice } from '../testing-support/collect-notices';

const events: StreamDefinition = { name: 'EVENTS', subjects: ['event.>'], storage: 'memory', duplicateWindowMs: 60_000 };

describe('core notices and stream replay (real nats-server)', () => {
  let connection: MessagingConnection;
  const warnings: Array<{ subject: unknown; message: string }> = [];
  const errors: Array<{ fields: object; message: string }> = [];

  beforeAll(async () => {
    connection = await connectTestMessaging({
      name: 'core-notices-int',
      namespace: uniqueNamespace(),
      logger: { debug: () => undefined, info: () => undefined, warn: (fields: Record<string, unknown>, message: string) => warnings.push({ subject: fields['subject'], message }), error: (fields: object, message: string) => errors.push({ fields, message }) },
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
    expect(errors.map((entry) => entry.message)).toEqual(['notice handler failed; notice dropped']);
    errors.length = 0;
  });

  it('decodes notices with a schema: non-JSON, empty and refused ones are logged with their subject and skipped, handler rejections too', async () => {
    const probeSchema = z.object({ n: z.number() });
    const received: number[] = [];
    const subscription = subscribeNotices(connection, {
      subject: 'notify.typed.*',
      max: 6,
      onNotice: async (notice) => {
        const { n } = decodeNotice(notice, probeSchema);
        if (n < 0) throw new Error(`cannot handle ${n}`);
        await Promise.resolve();
        received.push(n);
      },
    });
    await flushConnection(connection);
    warnings.length = 0;
    publishNotice(connection, 'notify.typed.a', { n: 1 });
    publishRawNotice(connection, 'notify.typed.garbled', 'not json {');
    publishNotice(connection, 'notify.typed.empty');
    publishNotice(connection, 'notify.typed.refused', { n: 'one' });
    publishNotice(connection, 'notify.typed.rejected', { n: -1 });
    publishNotice(connection, 'notify.typed.b', { n: 2 });
    await subscription.closed;

    expect(received).toEqual([1, 2]);
    expect(warnings).toEqual(['notify.typed.garbled', 'notify.typed.empty', 'notify.typed.refused'].map((subject) => ({ subject, message: 'malformed notice ignored' })));
    expect(errors).toEqual([{ fields: { subject: 'notify.typed.rejected', error: 'Error: cannot handle -1' }, message: 'notice handler failed; notice dropped' }]);
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
    // A replay closed before anyone read it (a live feed stopped while it opened) closes too.
    const unread = await openOrderedReplay(connection, { stream: 'EVENTS', subject: 'event.task.*' });
    await expect(unread.close()).resolves.toBeUndefined();
  });
});
