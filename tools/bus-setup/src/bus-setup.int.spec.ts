import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  appAccountJwt,
  connectMessaging,
  createBusAuthority,
  inboxPrefixOf,
  loadBusAuthority,
  loadEnrollmentAuthority,
  mintUserCredentials,
  provisionStreams,
  pushAccountClaims,
  renderNatsServerConfig,
  SERVICE_IDENTITIES,
  startNatsServer,
  type ConnectMessagingOptions,
  type MessagingConnection,
  type NatsServerProcess,
  type ServiceIdentityName,
} from '@switchyard/messaging';
import { DEPLOYMENT_FILES, writeDeploymentBus, type DeploymentBusOptions } from './deployment-bus.writer';
import { parseInitOptions } from './init.options';

// A refusal must be told apart from a slow answer on a busy machine: long enough not to time out.
const REFUSAL_TIMEOUT_MS = 10_000;

/**
 * What `init` writes, run by the real nats-server: as the whole config (Compose, a server of
 * one's own), as an include in a config made elsewhere (the NATS Helm chart), and with TLS.
 */
describe('a nats-server started from what init writes', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'switchyard-bus-setup-int-'));
  const servers: NatsServerProcess[] = [];
  const opened: MessagingConnection[] = [];

  const optionsIn = (place: string, extra: Record<string, string> = {}): DeploymentBusOptions =>
    parseInitOptions({ out: path.join(root, place, 'bus'), host: '127.0.0.1', port: '-1', 'jetstream-dir': path.join(root, place, 'data', 'jetstream'), 'resolver-dir': path.join(root, place, 'data', 'resolver'), ...extra });
  const start = async (options: DeploymentBusOptions, configFile = path.join(options.outDirectory, DEPLOYMENT_FILES.serverConfig)): Promise<NatsServerProcess> => {
    const server = await startNatsServer({ storeDirectory: options.server.jetStreamDirectory, configFile });
    servers.push(server);
    return server;
  };
  const connect = async (options: ConnectMessagingOptions): Promise<MessagingConnection> => {
    const connection = await connectMessaging({ connectTimeoutMs: REFUSAL_TIMEOUT_MS, reconnectTimeWaitMs: 100, reconnectJitterMs: 0, ...options });
    opened.push(connection);
    return connection;
  };
  const connectService = (url: string, bus: DeploymentBusOptions, name: ServiceIdentityName, extra: Partial<ConnectMessagingOptions> = {}): Promise<MessagingConnection> =>
    connect({ url, name: `bus-setup-${name}`, credentialsFile: path.join(bus.outDirectory, DEPLOYMENT_FILES.credentialsOf(name)), inboxPrefix: inboxPrefixOf({ kind: 'service', name }), ...extra });

  afterAll(async () => {
    await Promise.all(opened.map((connection) => connection.close()));
    for (const server of servers) await server.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('lets every service in with its own creds, refuses an anonymous connection and a user of another authority', async () => {
    const bus = optionsIn('whole');
    await writeDeploymentBus(bus);
    const server = await start(bus);

    for (const name of SERVICE_IDENTITIES) await connectService(server.url, bus, name);
    const queue = await connectService(server.url, bus, 'queue');
    await provisionStreams(queue, [{ name: 'TASK_EVENTS', subjects: ['task.>'] }]);

    await expect(connectMessaging({ url: server.url, name: 'anonymous', connectTimeoutMs: REFUSAL_TIMEOUT_MS })).rejects.toThrow(/authorization/i);
    const { creds } = await mintUserCredentials(createBusAuthority(), { identity: { kind: 'service', name: 'queue' } });
    await expect(connectMessaging({ url: server.url, name: 'foreign', credentials: creds, connectTimeoutMs: REFUSAL_TIMEOUT_MS })).rejects.toThrow(/authorization/i);
  });

  it('keeps a revocation across a server restart when init runs again, which a freshly rendered config would lose', async () => {
    const bus = optionsIn('revocation');
    await writeDeploymentBus(bus);
    // What the gateway holds does the revoking, as it would: sign a daemon, then push its revocation.
    const enrollment = loadEnrollmentAuthority(path.join(bus.outDirectory, DEPLOYMENT_FILES.enrollmentAuthority));
    const daemon = await mintUserCredentials(enrollment, { identity: { kind: 'daemon', daemonId: 'd1' } });
    const connectDaemon = (url: string): Promise<MessagingConnection> => connect({ url, name: 'bus-setup-daemon', credentials: daemon.creds, inboxPrefix: '_INBOX.d1', jetStreamAccess: 'publish' });
    const first = await start(bus);
    await connectDaemon(first.url);
    const system = await connect({ url: first.url, name: 'bus-setup-claims', credentials: enrollment.systemUserCreds, jetStreamAccess: 'publish' });
    await pushAccountClaims(system, await appAccountJwt(enrollment, { [daemon.userPublicKey]: Math.floor(Date.now() / 1000) + 1 }));
    await expect(connectDaemon(first.url)).rejects.toThrow(/authorization/i);
    await first.stop();

    const again = await writeDeploymentBus(bus);
    expect(again.find((file) => file.file.endsWith(DEPLOYMENT_FILES.serverConfig))?.outcome).toBe('kept');
    const restarted = await start(bus);
    await expect(connectDaemon(restarted.url)).rejects.toThrow(/authorization/i);
    await restarted.stop();

    const fresh = path.join(root, 'revocation', 'fresh.conf');
    writeFileSync(fresh, await renderNatsServerConfig(loadBusAuthority(bus.authorityDirectory), bus.server), { mode: 0o600 });
    const withFreshPreload = await start(bus, fresh);
    await expect(connectDaemon(withFreshPreload.url)).resolves.toBeDefined();
  });

  it('works as an include of a config made elsewhere, as the NATS Helm chart makes it', async () => {
    const bus = optionsIn('chart');
    await writeDeploymentBus(bus);
    const configDirectory = path.join(root, 'chart', 'nats-config');
    mkdirSync(configDirectory, { recursive: true });
    const chartConfig = {
      server_name: 'chart-0',
      host: '127.0.0.1',
      port: -1,
      jetstream: { store_dir: bus.server.jetStreamDirectory },
      resolver: { type: 'full', dir: bus.server.resolverDirectory, allow_delete: false, interval: '2m' },
    };
    // The chart renders JSON with its `$include` keys turned into include directives.
    const rendered = JSON.stringify(chartConfig, null, 2).replace(/^\{/, `{\n  include ../bus/${DEPLOYMENT_FILES.operatorInclude};`);
    writeFileSync(path.join(configDirectory, 'nats.conf'), rendered);
    const server = await start(bus, path.join(configDirectory, 'nats.conf'));

    await expect(connectService(server.url, bus, 'gateway')).resolves.toBeDefined();
    await expect(connectMessaging({ url: server.url, name: 'anonymous', connectTimeoutMs: REFUSAL_TIMEOUT_MS })).rejects.toThrow(/authorization/i);
  });

  it('with --tls-cert and --tls-key, requires TLS: a client that trusts the CA gets in, one that does not is refused', async () => {
    const tls = makeCertificates(path.join(root, 'tls'));
    const bus = optionsIn('tls', { 'tls-cert': tls.certFile, 'tls-key': tls.keyFile });
    await writeDeploymentBus(bus);
    const server = await start(bus);
    const url = server.url.replace('127.0.0.1', 'localhost');

    await expect(connectService(url, bus, 'queue', { connectionOptions: { tls: { ca: readFileSync(tls.caFile, 'utf8') } } })).resolves.toBeDefined();
    await expect(connectService(url, bus, 'transcript')).rejects.toThrow(/certificate/i);
  });
});

/** A private CA and a server certificate it signed for localhost, with openssl. */
function makeCertificates(directory: string): { caFile: string; certFile: string; keyFile: string } {
  mkdirSync(directory, { recursive: true });
  const file = (name: string): string => path.join(directory, name);
  const openssl = (...args: string[]): void => void execFileSync('openssl', args, { stdio: 'ignore' });
  openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', file('ca.key'), '-out', file('ca.crt'), '-days', '1', '-subj', '/CN=bus-setup test CA');
  openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', file('tls.key'), '-out', file('tls.csr'), '-subj', '/CN=localhost');
  writeFileSync(file('san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  openssl('x509', '-req', '-in', file('tls.csr'), '-CA', file('ca.crt'), '-CAkey', file('ca.key'), '-CAcreateserial', '-out', file('tls.crt'), '-days', '1', '-extfile', file('san.ext'));
  return { caFile: file('ca.crt'), certFile: file('tls.crt'), keyFile: file('tls.key') };
}
