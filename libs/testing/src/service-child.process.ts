import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { TEST_CONNECT_TIMEOUT_MS } from './test-bus';

export interface ServiceChild {
  readonly url: string;
  /** `GET /metrics`, when its environment set METRICS_PORT. */
  readonly metricsUrl: string | undefined;
  /** The process id, e.g. to find the process in a census. */
  readonly pid: number;
  /** Resolves when the process has exited, however it ended. */
  readonly exited: Promise<void>;
  /** Graceful: SIGTERM, resolves once the process has exited. */
  stop(): Promise<void>;
  /** Sends the signal (e.g. SIGKILL, a crash) and resolves once the process has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/**
 * Runs a built service (`dist/<entry>`, see `npm run build`) as its own process, as in production,
 * and waits until it listens. Needs LOG_LEVEL info or lower: it waits for the listening line.
 */
export function startServiceChild(options: { readonly entry: string; readonly env: NodeJS.ProcessEnv; readonly timeoutMs: number }): Promise<ServiceChild> {
  const distRoot = path.join(workspaceRoot(), 'dist');
  const child: ChildProcess = spawn(process.execPath, [path.join(distRoot, options.entry)], { env: options.env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.entry} did not start within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    const lastLines: string[] = [];
    // For debugging a suite: SWITCHYARD_CHILD_LOG_DIR keeps every child's log lines in a file.
    const logDirectory = process.env['SWITCHYARD_CHILD_LOG_DIR'];
    const logFile = logDirectory ? path.join(logDirectory, `${options.entry.replaceAll(/[/.]/g, '_')}-${String(child.pid)}.log`) : undefined;
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${options.entry} exited with ${code} before listening:\n${lastLines.join('\n')}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (logFile) appendFileSync(logFile, `${line}\n`);
      lastLines.push(line.slice(0, 2_000));
      if (lastLines.length > 5) lastLines.shift();
      const parsed = safeParse(line);
      if (parsed?.event === 'service_listening' && typeof parsed.url === 'string') {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        const exited = new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) done();
          else child.once('exit', () => done());
        });
        const kill = (signal: NodeJS.Signals): Promise<void> => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        };
        const metricsUrl = typeof parsed.metricsUrl === 'string' ? parsed.metricsUrl : undefined;
        resolve({ url: parsed.url, metricsUrl, pid: child.pid ?? -1, exited, stop: () => kill('SIGTERM'), kill });
      }
    });
  });
}

/**
 * The environment every built service child of a test shares: the test's NATS and namespace, a
 * free port on loopback, info logs (which `startServiceChild` waits on), and the stream size cap.
 */
export function serviceChildEnvironment(options: { readonly natsUrl: string; readonly namespace: string }): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '',
    SWITCHYARD_STREAM_MAX_BYTES_CAP: process.env['SWITCHYARD_STREAM_MAX_BYTES_CAP'] ?? '',
    NATS_URL: options.natsUrl,
    NATS_CONNECT_TIMEOUT_MS: String(TEST_CONNECT_TIMEOUT_MS),
    SWITCHYARD_NAMESPACE: options.namespace,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
  };
}

/** The repository root, from the sources (jest) or from their build in dist/ alike. */
export function workspaceRoot(): string {
  for (let directory = __dirname; directory !== path.dirname(directory); directory = path.dirname(directory)) {
    if (existsSync(path.join(directory, 'nx.json'))) return directory;
  }
  throw new Error('the Switchyard repository root was not found above ' + __dirname);
}

function safeParse(line: string): { event?: unknown; url?: unknown; metricsUrl?: unknown } | undefined {
  try {
    return JSON.parse(line) as { event?: unknown; url?: unknown; metricsUrl?: unknown };
  } catch {
    return undefined;
  }
}
