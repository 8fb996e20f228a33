import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface ServiceChild {
  readonly url: string;
  stop(): Promise<void>;
}

/** Runs a built service as its own process (as in production) and waits until it listens. */
export function startServiceChild(options: { readonly entry: string; readonly env: NodeJS.ProcessEnv; readonly timeoutMs: number }): Promise<ServiceChild> {
  const distRoot = path.resolve(__dirname, '../../..');
  const child: ChildProcess = spawn(process.execPath, [path.join(distRoot, options.entry)], { env: options.env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.entry} did not start within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${options.entry} exited with ${code} before listening`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const parsed = safeParse(line);
      if (parsed?.event === 'service_listening' && typeof parsed.url === 'string') {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve({
          url: parsed.url,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
  });
}

function safeParse(line: string): { event?: unknown; url?: unknown } | undefined {
  try {
    return JSON.parse(line) as { event?: unknown; url?: unknown };
  } catch {
    return undefined;
  }
}
