import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';

/** A private nats-server with JetStream, started from PATH (local stack and test bootstrap). */
export interface NatsServerProcess {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

export interface StartNatsServerOptions {
  /** JetStream store directory; created when missing. Ignored with `configFile`, which names its own. */
  readonly storeDirectory: string;
  /** A server config (operator mode, TLS, ...): it then sets host, port and JetStream itself. */
  readonly configFile?: string;
  /** 0 lets nats-server pick a free port. */
  readonly port?: number;
  readonly executable?: string;
  readonly startTimeoutMs?: number;
  /**
   * Run in its own process group so a terminal's Ctrl-C reaches only our supervisor, which then
   * stops the services before the server they depend on.
   */
  readonly ownProcessGroup?: boolean;
}

export const NATS_SERVER_INSTALL_HINT =
  'nats-server was not found on PATH. Install it with `apt-get install nats-server` (Debian/Ubuntu), ' +
  '`brew install nats-server` (macOS), or download a release from https://github.com/nats-io/nats-server/releases, ' +
  'or point NATS_URL at a running server with JetStream enabled.';

export class NatsServerMissingError extends Error {
  constructor() {
    super(NATS_SERVER_INSTALL_HINT);
    this.name = 'NatsServerMissingError';
  }
}

const listeningLine = /Listening for client connections on ([\d.]+):(\d+)/;

export async function startNatsServer(options: StartNatsServerOptions): Promise<NatsServerProcess> {
  mkdirSync(options.storeDirectory, { recursive: true });
  const port = options.port && options.port > 0 ? String(options.port) : '-1';
  const args = options.configFile ? ['-c', options.configFile] : ['-a', '127.0.0.1', '-p', port, '-js', '-sd', options.storeDirectory];
  const child = spawn(
    options.executable ?? 'nats-server',
    args,
    { stdio: ['ignore', 'ignore', 'pipe'], detached: options.ownProcessGroup ?? false },
  );
  const url = await waitForListening(child, options.startTimeoutMs ?? 15_000);
  return {
    url,
    pid: child.pid ?? -1,
    stop: () => stopChild(child),
  };
}

function waitForListening(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`nats-server did not start within ${timeoutMs} ms: ${log.slice(-2000)}`));
    }, timeoutMs);
    const finish = (outcome: () => void): void => {
      clearTimeout(timer);
      child.stderr?.removeAllListeners('data');
      // Keep draining stderr so a chatty server never blocks on a full pipe.
      child.stderr?.resume();
      outcome();
    };
    child.once('error', (error: NodeJS.ErrnoException) =>
      finish(() => reject(error.code === 'ENOENT' ? new NatsServerMissingError() : error)),
    );
    child.once('exit', (code, signal) =>
      finish(() => reject(new Error(`nats-server exited early (code ${code}, signal ${signal}): ${log.slice(-2000)}`))),
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
      const match = listeningLine.exec(log);
      if (match) {
        child.removeAllListeners('exit');
        finish(() => resolve(`nats://${match[1]}:${match[2]}`));
      }
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
