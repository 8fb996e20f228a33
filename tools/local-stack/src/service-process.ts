import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { formatChildLine } from './terminal-output';

export interface StartServiceProcessOptions {
  readonly name: string;
  readonly entry: string;
  readonly env: NodeJS.ProcessEnv;
  readonly logFile: string;
  readonly verbose: boolean;
  readonly onUnexpectedExit: (name: string, code: number | null, signal: NodeJS.Signals | null) => void;
}

/** One supervised service child: logs to a file, echoes what matters, stops TERM then KILL. */
export class ServiceProcess {
  private readonly child: ChildProcess;
  private readonly log: WriteStream;
  private stopping = false;
  readonly exited: Promise<void>;

  constructor(private readonly options: StartServiceProcessOptions) {
    // Owner-only, like the rest of the home: a service's log names tasks, agents and its settings.
    this.log = createWriteStream(options.logFile, { flags: 'a', mode: 0o600 });
    // Own process group: Ctrl-C reaches only the supervisor, which stops children in order.
    this.child = spawn(process.execPath, ['--enable-source-maps', options.entry], {
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    for (const stream of [this.child.stdout, this.child.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream }).on('line', (line) => this.onLine(line));
    }
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        if (!this.stopping) options.onUnexpectedExit(options.name, code, signal);
        resolve();
      });
    });
  }

  get name(): string {
    return this.options.name;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    if (this.running) {
      this.child.kill('SIGTERM');
      const killer = setTimeout(() => this.killGroup('SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(killer);
    }
    // A service may have started children of its own (agent CLIs); none may outlive the stack.
    this.killGroup('SIGKILL');
    await new Promise<void>((resolve) => this.log.end(resolve));
  }

  /** Last resort used from a synchronous exit handler. */
  killNow(): void {
    this.killGroup('SIGKILL');
  }

  private killGroup(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // The group is already gone.
    }
  }

  private onLine(line: string): void {
    this.log.write(`${line}\n`);
    const shown = formatChildLine(this.options.name, line, this.options.verbose);
    if (shown) process.stdout.write(`${shown}\n`);
  }
}

/** Polls /readyz until it answers 200, the child dies, or the deadline passes. */
export async function waitUntilReady(options: {
  readonly url: string;
  readonly process: ServiceProcess;
  readonly deadline: number;
}): Promise<void> {
  let lastProblem = 'no answer yet';
  while (Date.now() < options.deadline) {
    if (!options.process.running) throw new Error(`${options.process.name} exited before it was ready`);
    try {
      const response = await fetch(`${options.url}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
      lastProblem = `readyz answered ${response.status}: ${await response.text()}`;
    } catch (error) {
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${options.process.name} was not ready in time (${lastProblem})`);
}
