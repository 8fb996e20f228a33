import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startAuthenticatedNatsServer, NatsServerMissingError, type NatsServerProcess } from '@switchyard/messaging';
import { testBusAuthority } from '@switchyard/testing';

/**
 * A nats-server of the suite's own (never the shared one), killable and restartable on its port and
 * store; in operator mode with the test bus's authority, so the test's users connect to it too.
 */
export interface PrivateNatsServer {
  readonly url: string;
  readonly storeDirectory: string;
  pid(): number;
  /** Sends the signal and waits until the process is gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port with the same JetStream store. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPrivateNatsServer(): Promise<PrivateNatsServer> {
  findOnPath('nats-server');
  const storeDirectory = await mkdtemp(path.join(tmpdir(), 'switchyard-faults-nats-'));
  const authority = testBusAuthority();
  let server: NatsServerProcess;
  try {
    server = await startAuthenticatedNatsServer({ directory: storeDirectory, authority });
  } catch (error) {
    await rm(storeDirectory, { recursive: true, force: true });
    throw error;
  }
  const port = Number(new URL(server.url).port);
  return {
    url: server.url,
    storeDirectory,
    pid: () => server.pid,
    async kill(signal) {
      process.kill(server.pid, signal);
      // `stop` waits for the exit the signal causes (its own SIGTERM then finds the process gone).
      await server.stop();
    },
    async restart() {
      server = await startAuthenticatedNatsServer({ directory: storeDirectory, authority, port });
    },
    async stop() {
      await server.stop();
      await rm(storeDirectory, { recursive: true, force: true });
    },
  };
}

function findOnPath(name: string): string {
  for (const directory of (process.env['PATH'] ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(directory, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  throw new NatsServerMissingError();
}
