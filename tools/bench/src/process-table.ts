import { readdirSync, readFileSync } from 'node:fs';

/** The fields of `/proc/<pid>/stat` a bench needs. */
export interface ProcessStat {
  /** `R`, `S`, `D`, `Z` (zombie: dead, waiting to be reaped), ... */
  readonly state: string;
  readonly parentPid: number;
  readonly processGroupId: number;
  /** Clock ticks after boot: with the pid, tells a process from a later one reusing its pid. */
  readonly startTime: number;
  /** User plus system CPU time so far, in clock ticks (`CLK_TCK`, 100 on Linux). */
  readonly cpuTicks: number;
}

/** Parses `/proc/<pid>/stat`; the command name may hold spaces and parentheses, so split after the last `)`. */
export function parseProcessStat(text: string): ProcessStat {
  const fields = text.slice(text.lastIndexOf(')') + 2).trim().split(' ');
  // After the name: state(3) ppid(4) pgrp(5) ... utime(14) stime(15) ... starttime(22); fields[0] is field 3.
  const startTime = Number(fields[19]);
  if (fields.length < 20 || !Number.isFinite(startTime)) throw new Error(`unexpected /proc stat line: ${text.slice(0, 200)}`);
  return { state: fields[0]!, parentPid: Number(fields[1]), processGroupId: Number(fields[2]), startTime, cpuTicks: Number(fields[11]) + Number(fields[12]) };
}

/** `VmRSS` of `/proc/<pid>/status` in KiB; undefined for a process without memory (a zombie). */
export function parseResidentKiB(statusText: string): number | undefined {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(statusText);
  return match ? Number(match[1]) : undefined;
}

/** `/proc/<pid>/schedstat` of the main thread: nanoseconds on a CPU and runnable but waiting for one. */
export interface SchedulerTimes {
  readonly runningNs: number;
  readonly waitingNs: number;
}

export function parseSchedulerTimes(text: string): SchedulerTimes {
  const [running, waiting] = text.trim().split(/\s+/).map(Number);
  if (!Number.isFinite(running) || !Number.isFinite(waiting)) throw new Error(`unexpected /proc schedstat line: ${text}`);
  return { runningNs: running!, waitingNs: waiting! };
}

export function readSchedulerTimes(pid: number): SchedulerTimes | undefined {
  try {
    return parseSchedulerTimes(readFileSync(`/proc/${pid}/schedstat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Every descendant of `rootPid` in a snapshot of (pid, parent) pairs, breadth first. */
export function descendantsIn(table: ReadonlyArray<{ readonly pid: number; readonly parentPid: number }>, rootPid: number): number[] {
  const childrenOf = new Map<number, number[]>();
  for (const entry of table) childrenOf.set(entry.parentPid, [...(childrenOf.get(entry.parentPid) ?? []), entry.pid]);
  const found: number[] = [];
  const queue = [...(childrenOf.get(rootPid) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    found.push(pid);
    queue.push(...(childrenOf.get(pid) ?? []));
  }
  return found;
}

export function readProcessStat(pid: number): ProcessStat | undefined {
  try {
    return parseProcessStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

export function readResidentKiB(pid: number): number | undefined {
  try {
    return parseResidentKiB(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Clock ticks per second of /proc CPU times: `USER_HZ`, 100 on every mainstream Linux build. */
export const CLOCK_TICKS_PER_SECOND = 100;

/** A process as first seen: its pid and start time, so a reused pid is never mistaken for it. */
export interface ProcessIdentity {
  readonly pid: number;
  readonly startTime: number;
}

export function identify(pid: number): ProcessIdentity | undefined {
  const stat = readProcessStat(pid);
  return stat && stat.state !== 'Z' ? { pid, startTime: stat.startTime } : undefined;
}

/**
 * Alive means: still in /proc, same start time, not a zombie. An orphaned grandchild may stay a
 * zombie until some ancestor reaps it; it runs nothing and holds no memory, so it counts as gone
 * (the daemon's process-group kill decides the same way).
 */
export function isAlive(identity: ProcessIdentity): boolean {
  const stat = readProcessStat(identity.pid);
  return stat !== undefined && stat.startTime === identity.startTime && stat.state !== 'Z';
}

/** Every descendant of `rootPid` now (one scan of /proc). */
export function descendantsOf(rootPid: number): number[] {
  const table: Array<{ pid: number; parentPid: number }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProcessStat(Number(entry));
    if (stat) table.push({ pid: Number(entry), parentPid: stat.parentPid });
  }
  return descendantsIn(table, rootPid);
}

/** Resolves with the milliseconds (hrtime) from `since` to the moment none of `processes` is alive. */
export async function waitUntilGone(options: {
  readonly processes: readonly ProcessIdentity[];
  readonly since: bigint;
  readonly pollIntervalMs: number;
  readonly timeoutMs: number;
}): Promise<number> {
  for (;;) {
    const now = process.hrtime.bigint();
    const elapsed = Number(now - options.since) / 1e6;
    if (!options.processes.some(isAlive)) return elapsed;
    if (elapsed > options.timeoutMs) throw new Error(`pids ${options.processes.map((entry) => entry.pid).join(', ')} still alive after ${options.timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs));
  }
}
