import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectMessaging, type MessagingConnection } from '../connection/messaging.connection';
import { natsClients } from '../connection/nats-clients';
import { publishNotice, subscribeNotices } from '../core-notices/core-notices';
import { MessagingNotReadyError } from '../errors/messaging.errors';
import type { NatsServerProcess } from '../nats-server/nats-server.process';
import { provisionStreams } from '../provisioning/stream.provisioner';
import { publish } from '../publishing/jetstream.publisher';
import { watchPermissionViolations } from '../testing-support/permission-violations';
import { accountIssuerOf, appAccountJwt } from './account-claims';
import { pushAccountClaims } from './account-claims.publisher';
import { startAuthenticatedNatsServer } from './authenticated-nats-server';
import { createBusAuthority, loadBusAuthority, saveBusAuthority, BUS_AUTHORITY_FILE } from './bus-authority';
import { inboxPrefixOf, type BusIdentity } from './bus-identities';
import { mintSystemUserCredentials, mintUserCredentials } from './user-credentials';

// One operator-mode server for the file; each case connects with the identity it is about.
describe('the bus in operator mode', () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'switchyard-trust-'));
  const authority = createBusAuthority();
  let server: NatsServerProcess;
  const opened: MessagingConnection[] = [];

  const connectAs = async (identity: BusIdentity, options: { publishOnly?: boolean; reconnectWaitMs?: number } = {}): Promise<MessagingConnection> => {
    const { creds } = await mintUserCredentials(authority, { identity });
    const connection = await connectMessaging({
      url: server.url,
      name: `trust-test-${identity.kind}`,
      credentials: creds,
      inboxPrefix: inboxPrefixOf(identity),
      requestTimeoutMs: 1_500,
      reconnectTimeWaitMs: options.reconnectWaitMs ?? 100,
      reconnectJitterMs: 0,
      ...(options.publishOnly ? { jetStreamAccess: 'publish' as const } : {}),
    });
    opened.push(connection);
    return connection;
  };

  beforeAll(async () => {
    server = await startAuthenticatedNatsServer({ directory: path.join(directory, 'nats'), authority });
  });
  afterAll(async () => {
    await Promise.all(opened.map((connection) => connection.close()));
    await server.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  it('keeps the authority 0600 in a 0700 directory and reads it back', () => {
    const home = path.join(directory, 'authority');
    saveBusAuthority(home, authority);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(home, BUS_AUTHORITY_FILE)).mode & 0o777).toBe(0o600);
    expect(loadBusAuthority(home).appSigner.getPublicKey()).toBe(authority.appSigner.getPublicKey());
  });

  it('refuses a connection without credentials', async () => {
    await expect(connectMessaging({ url: server.url, name: 'anonymous', connectTimeoutMs: 2_000 })).rejects.toThrow(MessagingNotReadyError);
  });

  it('refuses a user signed by a key the account does not trust', async () => {
    const stranger = createBusAuthority();
    const { creds } = await mintUserCredentials({ appAccount: authority.appAccount, appSigner: stranger.appSigner }, { identity: { kind: 'tooling', name: 'forger' } });
    await expect(connectMessaging({ url: server.url, name: 'forged', credentials: creds, connectTimeoutMs: 2_000 })).rejects.toThrow(/authorization/i);
  });

  it('lets a daemon publish only what names itself, and read nothing but its inbox and notices', async () => {
    const queue = await connectAs({ kind: 'service', name: 'queue' });
    await provisionStreams(queue, [{ name: 'TASK_EVENTS', subjects: ['task.>'] }]);
    const daemon = await connectAs({ kind: 'daemon', daemonId: 'd1' }, { publishOnly: true });
    const violations = watchPermissionViolations(daemon);

    const own = await publish(daemon, { subject: 'task.message.t1.d1', data: { n: 1 }, messageId: 'd1:t1:0', retry: { maxAttempts: 1 } });
    expect(own.seq).toBeGreaterThan(0);

    await expect(publish(daemon, { subject: 'task.message.t1.d2', data: { n: 2 }, messageId: 'd2:t1:0', timeoutMs: 1_000, retry: { maxAttempts: 1 } })).rejects.toThrow();
    await expect(violations.next(/Publish to "task\.message\.t1\.d2"/)).resolves.toMatch(/Permissions Violation/);
    await expect(publish(daemon, { subject: 'task.completed.t1.d1', data: {}, messageId: 'forged', timeoutMs: 1_000, retry: { maxAttempts: 1 } })).rejects.toThrow();

    for (const subject of ['>', '_INBOX.>', '_INBOX.d2.>', 'notify.d2.>', 'task.>']) {
      subscribeNotices(daemon, { subject, onNotice: () => undefined });
      await expect(violations.next(new RegExp(`Subscription to "${subject.replace(/[.>*]/g, (c) => `\\${c}`)}"`))).resolves.toMatch(/Permissions Violation/);
    }
    await expect(natsClients(daemon).nats.request('$JS.API.INFO', '', { timeout: 1_000 })).rejects.toThrow();
    await expect(violations.next(/Publish to "\$JS\.API\.INFO"/)).resolves.toMatch(/Permissions Violation/);

    const nudges: string[] = [];
    subscribeNotices(daemon, { subject: 'notify.d1.>', onNotice: (notice) => void nudges.push(notice.subject) });
    await natsClients(daemon).nats.flush();
    publishNotice(queue, 'notify.d1.work_available.r1');
    await natsClients(queue).nats.flush();
    await waitUntil(() => nudges.length === 1);
    expect(nudges).toEqual(['notify.d1.work_available.r1']);
  });

  it('answers a daemon command on its own inbox, and a service may not delete a stream', async () => {
    const queue = await connectAs({ kind: 'service', name: 'queue' });
    const daemon = await connectAs({ kind: 'daemon', daemonId: 'd3' }, { publishOnly: true });
    const subscription = natsClients(queue).nats.subscribe('cmd.task.claim.*', { callback: (_error, message) => { message.respond(`seen ${message.subject}`); } });
    await natsClients(queue).nats.flush();
    const reply = await natsClients(daemon).nats.request('cmd.task.claim.d3', '{}', { timeout: 2_000 });
    expect(reply.string()).toBe('seen cmd.task.claim.d3');
    subscription.unsubscribe();
    await expect(natsClients(queue).manager.streams.delete('TASK_EVENTS')).rejects.toThrow();
    expect((await natsClients(queue).manager.streams.info('TASK_EVENTS')).config.name).toBe('TASK_EVENTS');
  });

  it('lets the gateway ask the queue whether a task token is live, and no daemon (not even under its own id)', async () => {
    const queue = await connectAs({ kind: 'service', name: 'queue' });
    const gateway = await connectAs({ kind: 'service', name: 'gateway' });
    const daemon = await connectAs({ kind: 'daemon', daemonId: 'd5' }, { publishOnly: true });
    const violations = watchPermissionViolations(daemon);
    const subscription = natsClients(queue).nats.subscribe('cmd.task.token_introspect.>', { callback: (_error, message) => void message.respond('daemon reached the queue') });
    const serviceSubscription = natsClients(queue).nats.subscribe('cmd.task.token_introspect', { callback: (_error, message) => void message.respond('gateway reached the queue') });
    await natsClients(queue).nats.flush();
    expect((await natsClients(gateway).nats.request('cmd.task.token_introspect', '{}', { timeout: 2_000 })).string()).toBe('gateway reached the queue');
    for (const subject of ['cmd.task.token_introspect', 'cmd.task.token_introspect.d5']) {
      await expect(natsClients(daemon).nats.request(subject, '{}', { timeout: 1_000 })).rejects.toThrow();
      await expect(violations.next(new RegExp(`Publish to "${subject.replace(/\./g, '\\.')}"`))).resolves.toMatch(/Permissions Violation/);
    }
    subscription.unsubscribe();
    serviceSubscription.unsubscribe();
  });

  it('disconnects a revoked user at once and refuses it afterwards', async () => {
    const { creds, userPublicKey } = await mintUserCredentials(authority, { identity: { kind: 'daemon', daemonId: 'd4' } });
    const refused: Error[] = [];
    const daemon = await connectMessaging({
      url: server.url,
      name: 'to-revoke',
      credentials: creds,
      inboxPrefix: '_INBOX.d4',
      jetStreamAccess: 'publish',
      reconnectTimeWaitMs: 100,
      reconnectJitterMs: 0,
      onClosedByServer: (error) => refused.push(error),
    });
    opened.push(daemon);
    const statuses: string[] = [];
    const watching = (async () => {
      for await (const status of natsClients(daemon).nats.status()) statuses.push(`${status.type}:${status.type === 'error' ? String(status.error) : ''}`);
    })();
    const system = await connectMessaging({ url: server.url, name: 'claims', credentials: (await mintSystemUserCredentials(authority)).creds, jetStreamAccess: 'publish' });
    opened.push(system);
    await pushAccountClaims(system, await appAccountJwt(accountIssuerOf(authority), { [userPublicKey]: Math.floor(Date.now() / 1000) + 1 }));
    await waitUntil(() => statuses.some((status) => /revoked/i.test(status)));
    await expect(connectMessaging({ url: server.url, name: 'revoked-again', credentials: creds, connectTimeoutMs: 2_000 })).rejects.toThrow(/authorization/i);
    // The client gives up reconnecting once refused, and says so.
    await waitUntil(() => refused.length === 1);
    expect(refused[0]?.message).toMatch(/authorization|revoked/i);
    await daemon.close();
    await watching;
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}
