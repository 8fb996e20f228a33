import { existsSync } from 'node:fs';
import { execa } from 'execa';
import { AGENT_RUN_ERROR_CODES } from '../backend/agent-run-error.codes';
import { createLineSplitter, type OversizedLine } from './line-splitter';
import { isProcessGroupAlive, killProcessGroup, type ProcessGroupKillOutcome } from './process-group.signals';
import { createStderrTail, type StderrTailOptions } from './stderr-tail.buffer';
import { guardStdioDrain } from './stdio-drain.guard';

export const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_KILL_GRACE_MS = 2000;
/** After the group is gone, how long the pipes may stay silent yet open (a member that left the group). */
const STDIO_SILENCE_MS = 1000;
/** Windows of output after the group is gone before the pipes are cut anyway (see `guardStdioDrain`). */
const STDIO_MAX_FLOWING_WINDOWS = 10;

export interface AgentProcessOptions {
  readonly executable: string;
  /** Passed as an array, never through a shell. Never put the prompt here. */
  readonly args: readonly string[];
  readonly cwd: string;
  /** The complete environment of the child. */
  readonly env: Readonly<Record<string, string>>;
  readonly maxLineBytes?: number;
  readonly stderrTail?: StderrTailOptions;
  readonly killGraceMs?: number;
  readonly onLine: (line: string) => void;
  readonly onOversizedLine: (line: OversizedLine) => void;
  /** Any stdout bytes, even of an unfinished line: the watchdogs' notion of liveness. */
  readonly onStdoutActivity?: () => void;
}

export interface AgentProcessSpawnError {
  readonly code: typeof AGENT_RUN_ERROR_CODES.cliNotFound | typeof AGENT_RUN_ERROR_CODES.cliSpawnFailed;
  readonly message: string;
}

export interface AgentProcessExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** Set when the CLI never started. */
  readonly spawnError?: AgentProcessSpawnError;
  /** The first reason `kill` was called with, if it was. */
  readonly killReason?: string;
  readonly stderrTail: string;
}

export interface AgentProcess {
  readonly pid: number | undefined;
  /** Rejects when the child no longer reads its stdin. */
  writeStdin(text: string): Promise<void>;
  endStdin(): void;
  /** Backpressure from a slow consumer: the pipe fills and the CLI blocks on its own writes. */
  pauseStdout(): void;
  resumeStdout(): void;
  /** TERM to the group, KILL after the grace; resolves once the group is gone. Idempotent. */
  kill(reason: string): Promise<ProcessGroupKillOutcome>;
  /** Resolves once the child exited and its stdout was fully delivered. Never rejects. */
  readonly exited: Promise<AgentProcessExit>;
  readStderrTail(): string;
}

/** Spawns a coding-agent CLI in its own process group with explicit env and line-split stdout. */
export function startAgentProcess(options: AgentProcessOptions): AgentProcess {
  const stderrTail = createStderrTail(options.stderrTail);
  const splitter = createLineSplitter({
    maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    onLine: options.onLine,
    onOversizedLine: options.onOversizedLine,
  });
  const subprocess = execa(options.executable, [...options.args], {
    cwd: options.cwd,
    env: { ...options.env },
    extendEnv: false,
    // Own process group, so one signal reaches every grandchild (shells, tool servers, builds).
    detached: true,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    windowsHide: true,
  });
  const processGroupId = subprocess.pid;

  let exitInfo: { exitCode: number | null; signal: string | null } | undefined;
  let killReason: string | undefined;
  let killing: Promise<ProcessGroupKillOutcome> | undefined;
  let splitterEnded = false;
  const endSplitter = (): void => {
    if (splitterEnded) return;
    splitterEnded = true;
    splitter.end();
  };

  subprocess.stdout.on('data', (chunk: Buffer | string) => {
    options.onStdoutActivity?.();
    splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  });
  subprocess.stdout.on('end', endSplitter);
  subprocess.stderr.on('data', (chunk: Buffer | string) => stderrTail.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
  // EPIPE when the CLI exits without reading: the exit itself is what gets reported.
  subprocess.stdin.on('error', () => undefined);

  let finalized = false;
  const killGroup = (): Promise<ProcessGroupKillOutcome> => {
    // Once the run is over its group id may be reused by an unrelated process: never signal it then.
    if (processGroupId === undefined || (finalized && !killing)) return Promise.resolve({ forced: false, groupGone: true });
    killing ??= killProcessGroup({ processGroupId, graceMs: options.killGraceMs ?? DEFAULT_KILL_GRACE_MS });
    return killing;
  };

  subprocess.once('exit', (code: number | null, signal: NodeJS.Signals | null) => {
    exitInfo = { exitCode: code, signal };
    // Whatever the CLI left behind in its group is an orphan of this run.
    if (processGroupId !== undefined && isProcessGroupAlive(processGroupId)) {
      void killGroup().then(() => scheduleStdioDrain());
    } else {
      scheduleStdioDrain();
    }
  });

  // A process that escaped the group (setsid) could hold our pipes open forever.
  const scheduleStdioDrain = (): void =>
    guardStdioDrain({ streams: [subprocess.stdout, subprocess.stderr], silenceMs: STDIO_SILENCE_MS, maxFlowingWindows: STDIO_MAX_FLOWING_WINDOWS });

  const exited = subprocess.then(
    async (result) => {
      endSplitter();
      // Resolve only once no member of the group is left, not merely the leader.
      if (killing) await killing;
      finalized = true;
      const spawnError = exitInfo ? undefined : describeSpawnError({ errorCode: result.code, message: result.message ?? 'exit information missing', options });
      return {
        exitCode: exitInfo?.exitCode ?? null,
        signal: exitInfo?.signal ?? null,
        ...(spawnError ? { spawnError } : {}),
        ...(killReason !== undefined ? { killReason } : {}),
        stderrTail: stderrTail.read(),
      };
    },
    // With `reject: false` execa resolves even on failure; this only guards the "never rejects" promise.
    (error: unknown) => {
      endSplitter();
      finalized = true;
      return {
        exitCode: exitInfo?.exitCode ?? null,
        signal: exitInfo?.signal ?? null,
        spawnError: { code: AGENT_RUN_ERROR_CODES.cliSpawnFailed, message: String(error) },
        stderrTail: stderrTail.read(),
      } satisfies AgentProcessExit;
    },
  );

  return {
    pid: processGroupId,
    writeStdin(text: string): Promise<void> {
      return new Promise((resolve, reject) => {
        if (!subprocess.stdin.writable) {
          reject(new Error('the CLI stdin is closed'));
          return;
        }
        subprocess.stdin.write(text, (error) => (error ? reject(error) : resolve()));
      });
    },
    endStdin(): void {
      if (!subprocess.stdin.writableEnded) subprocess.stdin.end();
    },
    pauseStdout(): void {
      subprocess.stdout.pause();
    },
    resumeStdout(): void {
      subprocess.stdout.resume();
    },
    kill(reason: string): Promise<ProcessGroupKillOutcome> {
      killReason ??= reason;
      return killGroup();
    },
    exited,
    readStderrTail: () => stderrTail.read(),
  };
}

function describeSpawnError(input: { errorCode: string | undefined; message: string; options: AgentProcessOptions }): AgentProcessSpawnError {
  // Node reports a missing working directory as ENOENT of the command too.
  if (input.errorCode === 'ENOENT' && existsSync(input.options.cwd)) {
    return { code: AGENT_RUN_ERROR_CODES.cliNotFound, message: `CLI "${input.options.executable}" was not found` };
  }
  const detail = input.errorCode === 'ENOENT' ? `working directory ${input.options.cwd} does not exist` : input.message;
  return { code: AGENT_RUN_ERROR_CODES.cliSpawnFailed, message: `could not start "${input.options.executable}": ${detail}` };
}
