import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { workspaceRoot } from '@switchyard/testing';

export interface ServiceProcess {
  readonly entry: string;
  readonly pid: number;
  readonly url: string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
  stop(options?: { readonly graceMs?: number }): Promise<void>;
}

/**
 * A built service (`dist/<entry>`) as its own process, like `startServiceChild` of
 * `@switchyard/testing` but with its pid (the daemon bench reads its memory) and a stop that
 * cannot hang. Waits for the `service_listening` log line, so LOG_LEVEL must be info or lower.
 */
export function startServiceProcess(options: { readonly entry: string; readonly env: NodeJS.ProcessEnv; readonly timeoutMs: number }): Promise<ServiceProcess> {
  // BENCH_CPU_PROFILE_DIR=<dir> writes a V8 CPU profile of every service when it stops (open it in Chrome DevTools).
  const profileDirectory = process.env['BENCH_CPU_PROFILE_DIR'];
  const profiling = profileDirectory ? ['--cpu-prof', `--cpu-prof-dir=${profileDirectory}`, `--cpu-prof-name=${options.entry.split('/')[1]}.${Date.now()}.cpuprofile`] : [];
  const child = spawn(process.execPath, [...profiling, path.join(workspaceRoot(), 'dist', options.entry)], { env: options.env, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (stopOptions?: { readonly graceMs?: number }): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const forced = setTimeout(() => child.kill('SIGKILL'), stopOptions?.graceMs ?? 15_000);
    await exited;
    clearTimeout(forced);
  };
  return new Promise((resolve, reject) => {
    const lastLines: string[] = [];
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.entry} did not start within ${options.timeoutMs} ms:\n${lastLines.join('\n')}`));
    }, options.timeoutMs);
    const onEarlyExit = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`${options.entry} exited with ${code} before listening:\n${lastLines.join('\n')}`));
    };
    child.once('exit', onEarlyExit);
    // Read every line for the life of the process: a full stdout pipe would block the service.
    let listening = false;
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (listening) return;
      lastLines.push(line.slice(0, 2_000));
      if (lastLines.length > 5) lastLines.shift();
      const url = listeningUrlOf(line);
      if (url === undefined || child.pid === undefined) return;
      listening = true;
      clearTimeout(timer);
      child.removeListener('exit', onEarlyExit);
      resolve({ entry: options.entry, pid: child.pid, url, stop });
    });
  });
}

function listeningUrlOf(line: string): string | undefined {
  try {
    const parsed = JSON.parse(line) as { event?: unknown; url?: unknown };
    return parsed.event === 'service_listening' && typeof parsed.url === 'string' ? parsed.url : undefined;
  } catch {
    return undefined;
  }
}
