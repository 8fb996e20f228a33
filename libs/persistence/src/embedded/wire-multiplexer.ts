import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import {
  FrontendReader,
  PROTOCOL_VERSION_3,
  ReadyForQueryTail,
  closeStatementMessage,
  errorResponseMessage,
  rewriteStatementNames,
  simpleQueryMessage,
  startupMessage,
  syncMessage,
} from './wire-protocol';

/**
 * Serves one PGlite (a single Postgres session) to many Postgres wire-protocol clients.
 *
 * Why not pglite-socket's PGLiteSocketServer: its queue runs every protocol message on its own,
 * so Parse/Bind/Execute/Sync of different clients interleave and clobber each other's unnamed
 * statement and portal ("portal "" does not exist" under 8 concurrent pg clients).
 *
 * Here each client's messages are grouped up to a point where the server answers (Sync, Query,
 * FunctionCall, Flush, CopyDone, CopyFail) and a group runs atomically. The session then stays
 * owned by that client while it is inside a transaction block, an unsynced extended-query batch or
 * a COPY, i.e. whenever the response did not end with ReadyForQuery 'I'.
 */

/** Messages after which the server sends something the client waits for. */
const GROUP_TERMINATORS = new Set(['S', 'Q', 'F', 'H', 'c', 'f']);

export interface WireMultiplexerOptions {
  readonly database: PGlite;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /**
   * A client that holds the session in a transaction while others wait and sends nothing for this
   * long is disconnected (its transaction rolled back), as Postgres's
   * idle_in_transaction_session_timeout would; this turns a cross-connection deadlock into an error.
   */
  readonly idleInTransactionTimeoutMilliseconds?: number;
}

export interface WireMultiplexer {
  readonly port: number;
  close(): Promise<void>;
}

interface ClientConnection {
  readonly id: number;
  readonly socket: Socket;
  readonly reader: FrontendReader;
  readonly statementPrefix: string;
  /** Client-side names of the named statements it prepared, closed for it when it disconnects. */
  readonly statements: Set<string>;
  pending: Buffer[];
  closed: boolean;
}

interface Job {
  readonly client: ClientConnection;
  readonly bytes: Buffer;
  /** Cleanup jobs run for a disconnected client; their output goes nowhere. */
  readonly cleanup: boolean;
}

export async function startWireMultiplexer(options: WireMultiplexerOptions): Promise<WireMultiplexer> {
  const multiplexer = new PgliteWireMultiplexer(options);
  await multiplexer.listen();
  return multiplexer;
}

class PgliteWireMultiplexer implements WireMultiplexer {
  private readonly server: Server;
  private readonly clients = new Set<ClientConnection>();
  private queue: Job[] = [];
  private owner: ClientConnection | undefined;
  private running = false;
  private current: Promise<void> = Promise.resolve();
  private startupReply = Buffer.alloc(0);
  private nextClientId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private listeningPort = 0;

  constructor(private readonly options: WireMultiplexerOptions) {
    this.server = createServer((socket) => this.accept(socket));
  }

  get port(): number {
    return this.listeningPort;
  }

  async listen(): Promise<void> {
    // PGlite is already one started session; every client gets the same startup answer
    // (AuthenticationOk, ParameterStatus..., BackendKeyData, ReadyForQuery), captured once.
    const reply = await this.options.database.runExclusive(() =>
      this.options.database.execProtocolRaw(startupMessage({ user: 'postgres', database: 'postgres' })),
    );
    this.startupReply = Buffer.from(reply);
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port, this.options.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.listeningPort = (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const serverClosed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const client of this.clients) {
      this.disconnect(client);
      client.socket.destroy();
    }
    await serverClosed;
    // Let the running group and the rollbacks for disconnected clients finish before PGlite closes.
    while (this.running || this.queue.length > 0) await this.current;
    clearTimeout(this.idleTimer);
  }

  private accept(socket: Socket): void {
    socket.setNoDelay(true);
    const id = this.nextClientId++;
    const client: ClientConnection = {
      id,
      socket,
      reader: new FrontendReader(),
      statementPrefix: `sy${id}_`,
      statements: new Set(),
      pending: [],
      closed: false,
    };
    this.clients.add(client);
    socket.on('data', (chunk: Buffer) => this.receive(client, chunk));
    socket.on('error', () => this.disconnect(client));
    socket.on('close', () => this.disconnect(client));
  }

  private receive(client: ClientConnection, chunk: Buffer): void {
    if (client.closed) return;
    client.reader.push(chunk);
    try {
      for (let frame = client.reader.next(); frame && !client.closed; frame = client.reader.next()) {
        switch (frame.kind) {
          case 'ssl-request':
          case 'gss-encryption-request':
            client.socket.write('N'); // plain TCP on loopback only
            break;
          case 'cancel-request':
            client.socket.destroy(); // cancelling a running query is not supported
            this.disconnect(client);
            break;
          case 'startup':
            if (frame.protocolVersion !== PROTOCOL_VERSION_3) {
              this.refuse(client, '0A000', `unsupported frontend protocol ${frame.protocolVersion}`);
            } else {
              client.socket.write(this.startupReply);
            }
            break;
          case 'message':
            this.receiveMessage(client, frame.type, frame.bytes);
            break;
        }
      }
    } catch (error) {
      this.refuse(client, '08P01', error instanceof Error ? error.message : String(error));
    }
  }

  private receiveMessage(client: ClientConnection, type: string, bytes: Buffer): void {
    if (type === 'X') {
      client.socket.end();
      this.disconnect(client);
      return;
    }
    const rewrite = rewriteStatementNames(type, bytes, client.statementPrefix);
    if (rewrite.parsed !== undefined) client.statements.add(rewrite.parsed);
    if (rewrite.closed !== undefined) client.statements.delete(rewrite.closed);
    client.pending.push(rewrite.bytes);
    if (GROUP_TERMINATORS.has(type)) {
      this.queue.push({ client, bytes: Buffer.concat(client.pending), cleanup: false });
      client.pending = [];
      this.schedule();
    }
  }

  private refuse(client: ClientConnection, code: string, message: string): void {
    if (!client.closed && client.socket.writable) {
      client.socket.end(errorResponseMessage({ severity: 'FATAL', code, message }));
    }
    this.disconnect(client);
  }

  /** Idempotent: drops the client's queued work and, if it held the session, rolls back for it. */
  private disconnect(client: ClientConnection): void {
    if (client.closed) return;
    client.closed = true;
    this.clients.delete(client);
    this.queue = this.queue.filter((job) => job.client !== client);
    const cleanup: Buffer[] = [];
    if (this.owner === client) {
      // Sync ends an unsynced batch, then ROLLBACK ends a transaction block (a harmless warning otherwise).
      cleanup.push(syncMessage(), simpleQueryMessage('ROLLBACK'));
    }
    if (client.statements.size > 0) {
      cleanup.push(...[...client.statements].map((name) => closeStatementMessage(client.statementPrefix + name)), syncMessage());
    }
    if (cleanup.length > 0) {
      this.queue.unshift({ client, bytes: Buffer.concat(cleanup), cleanup: true });
    } else if (this.owner === client) {
      this.owner = undefined;
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.running) return;
    const owner = this.owner;
    const index = owner ? this.queue.findIndex((job) => job.client === owner) : this.queue.length > 0 ? 0 : -1;
    if (index < 0) {
      this.watchIdleOwner();
      return;
    }
    const [job] = this.queue.splice(index, 1);
    if (!job) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.running = true;
    this.current = this.execute(job).finally(() => {
      this.running = false;
      this.schedule();
    });
  }

  private async execute(job: Job): Promise<void> {
    const { database } = this.options;
    const tail = new ReadyForQueryTail();
    try {
      await database.runExclusive(() =>
        database.execProtocolRawStream(job.bytes, {
          onRawData: (data) => {
            tail.push(data);
            // PGlite reuses its output buffer: copy before the socket queues it.
            if (!job.cleanup && !job.client.closed) job.client.socket.write(Buffer.from(data));
          },
        }),
      );
    } catch (error) {
      if (job.cleanup) {
        this.owner = undefined;
        return;
      }
      // Owning the session makes the disconnect roll back whatever the failed group left open.
      this.owner = job.client;
      this.refuse(job.client, 'XX000', `embedded database failed: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (job.cleanup) {
      this.owner = undefined;
      return;
    }
    // No ReadyForQuery (Flush, COPY in progress) or a transaction block: the client keeps the session.
    const status = tail.status();
    this.owner = status === 'I' ? undefined : job.client;
    if (this.owner && job.client.closed) this.disconnectOwnerAfterClose(job.client);
  }

  /** A client that closed while its group ran still needs its rollback. */
  private disconnectOwnerAfterClose(client: ClientConnection): void {
    this.queue.unshift({ client, bytes: Buffer.concat([syncMessage(), simpleQueryMessage('ROLLBACK')]), cleanup: true });
  }

  private watchIdleOwner(): void {
    const timeout = this.options.idleInTransactionTimeoutMilliseconds ?? 0;
    const owner = this.owner;
    if (!owner || timeout <= 0 || this.queue.length === 0 || this.idleTimer) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      const stillBlocking = this.owner === owner && !this.running && this.queue.length > 0 && !this.queue.some((job) => job.client === owner);
      if (stillBlocking) {
        this.refuse(owner, '25P03', 'terminating connection due to idle-in-transaction timeout while other clients wait for the embedded database');
      }
    }, timeout);
    this.idleTimer.unref();
  }
}
