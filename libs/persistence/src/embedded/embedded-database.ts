import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { prepareDataDirectory, restrictDataDirectory } from './data-directory.permissions';
import { startWireMultiplexer } from './wire-multiplexer';

/**
 * Postgres without a server install: PGlite (Postgres compiled to WebAssembly, so no native
 * binaries and no refusal to run as root) served over the Postgres wire protocol on loopback, so
 * `pg` and TypeORM connect with an ordinary URL. It is one Postgres session shared by every client;
 * see wire-multiplexer.ts for how clients take turns, and the limits below.
 *
 * Limits (all clients share one session): SET/RESET, temporary tables, LISTEN/NOTIFY, SQL-level
 * PREPARE and session advisory locks are shared by every client; while one client is in a
 * transaction the others wait, so code that opens a transaction on one connection and then waits
 * for another connection deadlocks (cut short by the idle-in-transaction timeout); the database
 * name in the URL is ignored; query cancellation is not supported.
 */

export interface EmbeddedDatabaseOptions {
  /** Where the data files live (owner-only: folders 0700, files 0600); undefined keeps everything in memory. */
  readonly dataDirectory?: string;
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Defaults to 127.0.0.1; nothing here authenticates clients, so keep it on loopback. */
  readonly host?: string;
  /** See WireMultiplexerOptions; defaults to 60 seconds. */
  readonly idleInTransactionTimeoutMilliseconds?: number;
}

export interface EmbeddedDatabase {
  readonly url: string;
  stop(): Promise<void>;
}

const DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MILLISECONDS = 60_000;

export async function startEmbeddedDatabase(options: EmbeddedDatabaseOptions = {}): Promise<EmbeddedDatabase> {
  const host = options.host ?? '127.0.0.1';
  const dataDirectory = options.dataDirectory === undefined ? undefined : path.resolve(options.dataDirectory);
  const releaseLock = dataDirectory === undefined ? () => undefined : lockDataDirectory(dataDirectory);
  let database: PGlite | undefined;
  try {
    if (dataDirectory !== undefined) prepareDataDirectory(dataDirectory);
    database = await PGlite.create(dataDirectory);
    if (dataDirectory !== undefined) restrictDataDirectory(dataDirectory);
    const multiplexer = await startWireMultiplexer({
      database,
      host,
      port: options.port ?? 0,
      idleInTransactionTimeoutMilliseconds:
        options.idleInTransactionTimeoutMilliseconds ?? DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MILLISECONDS,
    });
    const openDatabase = database;
    let stopping: Promise<void> | undefined;
    return {
      url: `postgres://postgres@${host.includes(':') ? `[${host}]` : host}:${multiplexer.port}/postgres`,
      stop: () => {
        stopping ??= (async () => {
          try {
            await multiplexer.close();
            await openDatabase.close();
          } finally {
            releaseLock();
          }
        })();
        return stopping;
      },
    };
  } catch (error) {
    await database?.close().catch(() => undefined);
    releaseLock();
    throw error;
  }
}

/**
 * PGlite has no postmaster.pid: two processes opening one data directory would corrupt it. A lock
 * file beside the directory (PGlite's initdb owns the directory itself) holds our pid.
 */
function lockDataDirectory(dataDirectory: string): () => void {
  mkdirSync(path.dirname(dataDirectory), { recursive: true });
  const lockPath = `${dataDirectory}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const descriptor = openSync(lockPath, 'wx', 0o600);
      writeSync(descriptor, String(process.pid));
      closeSync(descriptor);
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(lockPath, 'utf8').trim());
      if (owner !== process.pid && processIsAlive(owner)) {
        throw new Error(`embedded database directory ${dataDirectory} is in use by process ${owner} (lock file ${lockPath})`);
      }
      if (owner === process.pid) {
        throw new Error(`embedded database directory ${dataDirectory} is already open in this process`);
      }
      rmSync(lockPath, { force: true }); // left behind by a process that died
    }
  }
  throw new Error(`could not lock embedded database directory ${dataDirectory}`);
}

function processIsAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

