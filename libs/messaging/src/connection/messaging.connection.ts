import { readFileSync } from 'node:fs';
import { connect, credsAuthenticator, type ConnectionOptions, type NatsConnection, type Status } from '../nats-core/nats-core.bridge';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { MessagingNotReadyError, describeCause } from '../errors/messaging.errors';
import { createNamespace, type MessagingNamespace } from '../namespace/messaging.namespace';
import { silentMessagingLogger, type MessagingLogger } from './messaging.logger';
import { attachNatsClients, natsClients } from './nats-clients';

/**
 * One NATS connection and its namespace, shared by every API here. The nats.js clients under it
 * are private to this lib (see `nats-clients.ts`): outside it, NATS is reached only through the
 * typed functions that take a connection.
 */
export interface MessagingConnection {
  readonly namespace: MessagingNamespace;
  readonly logger: MessagingLogger;
  /** Drains subscriptions and pending publishes, then closes. Safe to call more than once. */
  close(): Promise<void>;
}

export interface ConnectMessagingOptions {
  readonly url: string | readonly string[];
  /** Client name shown by the server's monitoring (e.g. `queue-service`). */
  readonly name: string;
  /** Prefix for every subject, stream and consumer name (see `createNamespace`). */
  readonly namespace?: string;
  readonly logger?: MessagingLogger;
  /** Called with every connection status change (disconnect, reconnect, error, ...). */
  readonly onStatus?: (status: Status) => void;
  readonly connectTimeoutMs?: number;
  /** Base wait between reconnect attempts; reconnects never give up. */
  readonly reconnectTimeWaitMs?: number;
  /** Upper bound of the random delay added to each reconnect wait. */
  readonly reconnectJitterMs?: number;
  /** Timeout of JetStream API calls and publish acks. */
  readonly requestTimeoutMs?: number;
  /**
   * Called when the connection ended without `close()`: reconnects never give up, so this is the
   * server refusing the user for good (revoked, or credentials it no longer trusts).
   */
  readonly onClosedByServer?: (error: Error) => void;
  /** The user's NATS `.creds` text (JWT and seed); `credentialsFile` reads it from a file. */
  readonly credentials?: string;
  readonly credentialsFile?: string;
  /** Where replies to this connection's requests arrive; an identity may read only its own. */
  readonly inboxPrefix?: string;
  /**
   * `manage` (default) checks and uses JetStream's API; `publish` only publishes to streams, for
   * identities (daemons) that may not use the API at all.
   */
  readonly jetStreamAccess?: 'manage' | 'publish';
  /** Anything else nats.js accepts (tls, ...). */
  readonly connectionOptions?: Omit<ConnectionOptions, 'servers' | 'name' | 'authenticator' | 'inboxPrefix'>;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;

export async function connectMessaging(options: ConnectMessagingOptions): Promise<MessagingConnection> {
  const namespace = createNamespace(options.namespace);
  const logger = options.logger ?? silentMessagingLogger;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  let nats: NatsConnection;
  try {
    nats = await connect({
      // nats.js otherwise captures a stack trace for every request, JetStream publishes included:
      // a measurable share of a busy daemon's CPU, for traces our typed errors do not need.
      noAsyncTraces: true,
      ...options.connectionOptions,
      ...authenticationOf(options),
      ...(options.inboxPrefix ? { inboxPrefix: options.inboxPrefix } : {}),
      servers: typeof options.url === 'string' ? options.url : [...options.url],
      name: options.name,
      timeout: options.connectTimeoutMs ?? 10_000,
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: options.reconnectTimeWaitMs ?? 1_000,
      reconnectJitter: options.reconnectJitterMs ?? 1_000,
    });
  } catch (error) {
    throw new MessagingNotReadyError(`cannot connect to NATS at ${String(options.url)}: ${describeCause(error)}`, error);
  }
  watchStatus({ nats, logger, name: options.name, onStatus: options.onStatus });

  const publishOnly = options.jetStreamAccess === 'publish';
  let manager: JetStreamManager;
  try {
    // A publish-only identity may not call the API: its manager is never used, so not checked.
    manager = await jetstreamManager(nats, { timeout: requestTimeoutMs, checkAPI: !publishOnly });
  } catch (error) {
    await nats.close().catch(() => undefined);
    throw new MessagingNotReadyError(`JetStream is not available: ${describeCause(error)}`, error);
  }
  logger.info({ server: nats.getServer(), name: options.name, namespace: namespace.value }, 'messaging connected');

  let closing = false;
  void nats.closed().then((error) => {
    if (closing || !error) return;
    logger.error({ name: options.name, event: 'nats_connection_refused', error: describeCause(error) }, 'NATS closed the connection for good');
    options.onClosedByServer?.(error);
  });
  const connection: MessagingConnection = {
    namespace,
    logger,
    close: () => {
      closing = true;
      return drainConnection(nats);
    },
  };
  attachNatsClients(connection, { nats, jetstream: jetstream(nats, { timeout: requestTimeoutMs }), manager, publishOnly });
  return connection;
}

function authenticationOf(options: ConnectMessagingOptions): Pick<ConnectionOptions, 'authenticator'> {
  let creds = options.credentials;
  if (creds === undefined && options.credentialsFile !== undefined) {
    try {
      creds = readFileSync(options.credentialsFile, 'utf8');
    } catch (error) {
      throw new MessagingNotReadyError(`cannot read NATS credentials ${options.credentialsFile}: ${describeCause(error)}`, error);
    }
  }
  return creds === undefined ? {} : { authenticator: credsAuthenticator(new TextEncoder().encode(creds)) };
}

/** The same connection (same clients, same namespace) logging to `logger`, e.g. a component's. */
export function withMessagingLogger(connection: MessagingConnection, logger: MessagingLogger): MessagingConnection {
  const derived: MessagingConnection = { namespace: connection.namespace, logger, close: () => connection.close() };
  attachNatsClients(derived, natsClients(connection));
  return derived;
}

/** The version the connected nats-server announced, for diagnostics and reports. */
export function natsServerVersion(connection: MessagingConnection): string | undefined {
  return natsClients(connection).nats.info?.version;
}

/** Throws `MessagingNotReadyError` unless the server answers a flush and a JetStream call in time. */
export async function checkNatsReady(connection: MessagingConnection, options: { timeoutMs?: number } = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const { nats, manager, publishOnly } = natsClients(connection);
  if (nats.isClosed()) throw new MessagingNotReadyError('NATS connection is closed');
  if (nats.isDraining()) throw new MessagingNotReadyError('NATS connection is draining');
  try {
    await withTimeout(nats.flush(), { timeoutMs, label: 'NATS flush' });
    // A publish-only identity has no JetStream API to ask; the flush proves the connection.
    if (!publishOnly) await withTimeout(manager.getAccountInfo(), { timeoutMs, label: 'JetStream account info' });
  } catch (error) {
    throw new MessagingNotReadyError(`NATS is not ready: ${describeCause(error)}`, error);
  }
}

const DRAIN_TIMEOUT_MS = 3_000;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

async function drainConnection(nats: NatsConnection): Promise<void> {
  if (nats.isClosed()) return;
  if (!nats.isDraining()) {
    try {
      // A drain waits for the server; one that never answers again (a revoked user reconnecting
      // forever, a server gone) must not hold the process: past the bound, close.
      const drained = await Promise.race([nats.drain().then(() => true), delay(DRAIN_TIMEOUT_MS).then(() => false)]);
      if (drained) return;
    } catch {
      // Draining can fail on a broken connection; closing below still releases everything.
    }
  }
  await nats.close().catch(() => undefined);
}

function watchStatus(options: {
  nats: NatsConnection;
  logger: MessagingLogger;
  name: string;
  onStatus: ((status: Status) => void) | undefined;
}): void {
  const { nats, logger, name, onStatus } = options;
  const loop = async (): Promise<void> => {
    for await (const status of nats.status()) {
      switch (status.type) {
        case 'disconnect':
        case 'staleConnection':
        case 'slowConsumer':
          logger.warn({ name, status: status.type }, `NATS ${status.type}`);
          break;
        case 'error': {
          const error = describeCause(status.error);
          // A refused subject is a bug in an identity's grant (or an attack): named so logs can be searched for it.
          const event = /permissions violation/i.test(error) ? 'nats_permission_violation' : 'nats_error';
          logger.error({ name, event, error }, 'NATS error');
          break;
        }
        case 'reconnect':
          logger.info({ name, server: status.server }, 'NATS reconnected');
          break;
        case 'ping':
        case 'update':
          break;
        default:
          logger.debug({ name, status: status.type }, `NATS ${status.type}`);
      }
      try {
        onStatus?.(status);
      } catch (error) {
        logger.error({ name, error: describeCause(error) }, 'NATS status hook threw');
      }
    }
  };
  loop().catch((error: unknown) => logger.error({ name, error: describeCause(error) }, 'NATS status watch ended'));
}

export function withTimeout<T>(promise: Promise<T>, options: { timeoutMs: number; label: string }): Promise<T> {
  const { timeoutMs, label } = options;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label} timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
