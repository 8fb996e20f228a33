import { existsSync } from 'node:fs';
import { execa } from 'execa';
import { AGENT_RUN_ERROR_CODES } from '../run-errors/agent-run-error.codes';
import { createLineSplitter, type OversizedLine } from './line-splitter';
import { killProcessGroup, type ProcessGroupKillOutcome } from './process-group.signals';
import type { ContainmentSweep, RunContainment } from './run-containment';
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
  /**
   * Finds and ends what the run started beyond its process group (see run-containment.ts): swept on
   * kill and after the CLI exits. Without one, only the group and the groups its live descendants
   * escaped to are ended.
   */
  readonly containment?: RunContainment;
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
  /** What the containment's sweep found of the run's tree once the CLI was gone (or killed). */
  readonly containment?: ContainmentSweep;
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

/** One spawned CLI: its process, its stdio readers, and how far its exit and kill got. */
interface AgentChild {
  readonly options: AgentProcessOptions;
  readonly subprocess: CliSubprocess;
  readonly processGroupId: number | undefined;
  readonly stderrTail: ReturnType<typeof createStderrTail>;
  readonly splitter: ReturnType<typeof createLineSplitter>;
  exitInfo: { exitCode: number | null; signal: string | null } | undefined;
  killReason: string | undefined;
  killing: Promise<ProcessGroupKillOutcome> | undefined;
  sweep: ContainmentSweep | undefined;
  splitterEnded: boolean;
  /** The run is over: its group id may belong to someone else now. */
  finalized: boolean;
}

type CliSubprocess = ReturnType<typeof spawnCli>;

/** Spawns a coding-agent CLI in its own process group with explicit env and line-split stdout. */
export function startAgentProcess(options: AgentProcessOptions): AgentProcess {
  const stderrTail = createStderrTail(options.stderrTail);
  const splitter = createLineSplitter({
    maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    onLine: options.onLine,
    onOversizedLine: options.onOversizedLine,
  });
  // Born inside the containment: all it starts stays there, however early it forks.
  const subprocess = options.containment ? options.containment.launch(() => spawnCli(options)) : spawnCli(options);
  const child: AgentChild = {
    options,
    subprocess,
    processGroupId: subprocess.pid,
    stderrTail,
    splitter,
    exitInfo: undefined,
    killReason: undefined,
    killing: undefined,
    sweep: undefined,
    splitterEnded: false,
    finalized: false,
  };
  readStdio(child);
  subprocess.once('exit', (code: number | null, signal: NodeJS.Signals | null) => onChildExit(child, { exitCode: code, signal }));
  return processHandle(child, settleExit(child));
}

function spawnCli(options: AgentProcessOptions) {
  return execa(options.executable, [...options.args], {
    cwd: options.cwd,
    env: { ...options.env, ...options.containment?.environment },
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
}

function readStdio(child: AgentChild): void {
  const { subprocess, options } = child;
  subprocess.stdout.on('data', (chunk: Buffer | string) => {
    options.onStdoutActivity?.();
    child.splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  });
  subprocess.stdout.on('end', () => endSplitter(child));
  subprocess.stderr.on('data', (chunk: Buffer | string) => child.stderrTail.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
  // EPIPE when the CLI exits without reading: the exit itself is what gets reported.
  subprocess.stdin.on('error', () => undefined);
}

function endSplitter(child: AgentChild): void {
  if (child.splitterEnded) return;
  child.splitterEnded = true;
  child.splitter.end();
}

/** The group (and the groups its live descendants escaped to), then whatever the containment still finds. */
function killGroup(child: AgentChild): Promise<ProcessGroupKillOutcome> {
  const { processGroupId } = child;
  // Once the run is over its group id may be reused by an unrelated process: never signal it then.
  if (processGroupId === undefined || (child.finalized && !child.killing)) return Promise.resolve({ forced: false, groupGone: true });
  const graceMs = child.options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  child.killing ??= killProcessGroup({ processGroupId, graceMs }).then(async (outcome) => {
    if (child.options.containment) child.sweep = await child.options.containment.sweep({ graceMs });
    return outcome;
  });
  return child.killing;
}

function onChildExit(child: AgentChild, exitInfo: { exitCode: number | null; signal: string | null }): void {
  child.exitInfo = exitInfo;
  // Whatever the CLI left behind (in its group, or escaped from it) is an orphan of this run.
  void killGroup(child).then(() => scheduleStdioDrain(child));
}

// A process that escaped the group (setsid) could hold our pipes open forever.
function scheduleStdioDrain(child: AgentChild): void {
  guardStdioDrain({ streams: [child.subprocess.stdout, child.subprocess.stderr], silenceMs: STDIO_SILENCE_MS, maxFlowingWindows: STDIO_MAX_FLOWING_WINDOWS });
}

/** The exit once stdout was delivered and no member of the group is left. Never rejects. */
function settleExit(child: AgentChild): Promise<AgentProcessExit> {
  return child.subprocess.then(
    async (result) => {
      endSplitter(child);
      // Resolve only once no member of the group is left, not merely the leader.
      if (child.killing) await child.killing;
      child.finalized = true;
      child.options.containment?.release();
      const { exitInfo, killReason } = child;
      const spawnError = exitInfo ? undefined : describeSpawnError({ errorCode: result.code, message: result.message ?? 'exit information missing', options: child.options });
      return {
        exitCode: exitInfo?.exitCode ?? null,
        signal: exitInfo?.signal ?? null,
        ...(spawnError ? { spawnError } : {}),
        ...(killReason !== undefined ? { killReason } : {}),
        stderrTail: child.stderrTail.read(),
        ...(child.sweep ? { containment: child.sweep } : {}),
      };
    },
    // With `reject: false` execa resolves even on failure; this only guards the "never rejects" promise.
    (error: unknown) => {
      endSplitter(child);
      child.finalized = true;
      child.options.containment?.release();
      return {
        exitCode: child.exitInfo?.exitCode ?? null,
        signal: child.exitInfo?.signal ?? null,
        spawnError: { code: AGENT_RUN_ERROR_CODES.cliSpawnFailed, message: String(error) },
        stderrTail: child.stderrTail.read(),
      } satisfies AgentProcessExit;
    },
  );
}

function processHandle(child: AgentChild, exited: Promise<AgentProcessExit>): AgentProcess {
  const { subprocess } = child;
  return {
    pid: child.processGroupId,
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
      child.killReason ??= reason;
      return killGroup(child);
    },
    exited,
    readStderrTail: () => child.stderrTail.read(),
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
