import { connectTestMessaging, uniqueNamespace } from '@switchyard/testing';
import type { MessagingConnection } from '../connection/messaging.connection';
import { subscribeNotices } from './core-notices';

describe('a notice subscription the server refuses (real operator-mode nats-server)', () => {
  let daemon: MessagingConnection;
  const errors: Array<{ fields: Record<string, unknown>; message: string }> = [];

  beforeAll(async () => {
    daemon = await connectTestMessaging({
      name: 'core-notices-refused',
      namespace: uniqueNamespace(),
      identity: { kind: 'daemon', daemonId: 'daemon-refused' },
      logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (fields, message) => errors.push({ fields, message }) },
    });
  });
  afterAll(async () => {
    await daemon?.close();
  });

  it('logs the permissions violation with the subject and resolves `closed`: nothing is left to reject unhandled', async () => {
    // A daemon may subscribe to its own notices only, not to the gateway's workspace notices.
    const subscription = subscribeNotices(daemon, { subject: 'notify.workspace.*', onNotice: () => undefined });

    await expect(subscription.closed).resolves.toBeUndefined();
    // The connection logs the server's error too; this is the subscription's own line.
    expect(errors).toContainEqual({ fields: { subject: 'notify.workspace.*', error: expect.stringMatching(/permissions violation/i) }, message: 'notice subscription ended by an error' });
  });
});
