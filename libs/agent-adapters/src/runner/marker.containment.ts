import { randomBytes } from 'node:crypto';
import { environmentHasEntryStartingWith, readProcessTable, withDescendants } from './process-table';
import { RUN_MARKER_VARIABLE, type ContainmentSweep, type RunContainment } from './run-containment';

/** How long a sweep keeps killing after the grace before it reports what is left. */
const SWEEP_KILL_WINDOW_MS = 5_000;
const POLL_MS = 25;

const delay = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** What identifies a run's processes in the process table. */
export interface RunMarks {
  /** `NAME=value` prefix of the marker entry: the whole entry for one run, a scope for all of a daemon's. */
  readonly markerPrefix: string;
  /** The CLI's pid: the run's process group and session, while any member is alive. */
  readonly leaderPid?: number;
}

/**
 * The run's live processes: those carrying its marker, those in its session or group, and all their
 * descendants. The sweeping process and its ancestors are never among them. A group or session id
 * is not reused while a member is alive, so matching them names only the run's.
 */
export function findRunProcesses(marks: RunMarks): number[] {
  const table = readProcessTable();
  const protectedPids = ancestorsOfSelf(table);
  const roots = new Set<number>();
  for (const entry of table) {
    if (protectedPids.has(entry.pid)) continue;
    const inRunTree = marks.leaderPid !== undefined && (entry.processGroupId === marks.leaderPid || entry.sessionId === marks.leaderPid);
    if (inRunTree || environmentHasEntryStartingWith(entry.pid, marks.markerPrefix)) roots.add(entry.pid);
  }
  return [...withDescendants(table, roots)].filter((pid) => !protectedPids.has(pid));
}

function ancestorsOfSelf(table: ReturnType<typeof readProcessTable>): Set<number> {
  const parentOf = new Map(table.map((entry) => [entry.pid, entry.parentPid]));
  const ancestors = new Set<number>();
  for (let pid: number | undefined = process.pid; pid !== undefined && pid > 0 && !ancestors.has(pid); pid = parentOf.get(pid)) ancestors.add(pid);
  return ancestors;
}

function signal(pids: Iterable<number>, name: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // Gone already (ESRCH), or not ours (EPERM): the next scan tells.
    }
  }
}

/**
 * TERM to every process `find` names, KILL after the grace to whatever is still (or newly) found,
 * repeated until a scan finds none or the kill window ends. Never rejects.
 */
export async function sweepProcesses(options: {
  readonly find: () => number[];
  readonly graceMs: number;
  readonly mechanism: ContainmentSweep['mechanism'];
}): Promise<ContainmentSweep> {
  const seen = new Set<number>();
  let found = options.find();
  if (found.length === 0) return { mechanism: options.mechanism, swept: 0, left: 0 };
  found.forEach((pid) => seen.add(pid));
  signal(found, 'SIGTERM');
  for (const termDeadline = Date.now() + options.graceMs; Date.now() < termDeadline; ) {
    await delay(POLL_MS);
    found = options.find();
    if (found.length === 0) return { mechanism: options.mechanism, swept: seen.size, left: 0 };
  }
  for (const killDeadline = Date.now() + SWEEP_KILL_WINDOW_MS; ; ) {
    found.forEach((pid) => seen.add(pid));
    signal(found, 'SIGKILL');
    await delay(POLL_MS);
    found = options.find();
    if (found.length === 0 || Date.now() >= killDeadline) return { mechanism: options.mechanism, swept: seen.size, left: found.length };
  }
}

/** A run's marker: `<scope>:<random>`, the scope naming the daemon (see `createRunContainments`). */
export function newRunMarker(scope: string): string {
  return `${scope}:${randomBytes(8).toString('hex')}`;
}

/** The `marker` mechanism for one run. */
export function markerContainment(options: { readonly scope: string }): RunContainment {
  const marker = newRunMarker(options.scope);
  let leaderPid: number | undefined;
  return {
    mechanism: 'marker',
    environment: { [RUN_MARKER_VARIABLE]: marker },
    launch(spawn) {
      const child = spawn();
      leaderPid = child.pid;
      return child;
    },
    sweep: ({ graceMs }) =>
      sweepProcesses({
        mechanism: 'marker',
        graceMs,
        find: () => findRunProcesses({ markerPrefix: `${RUN_MARKER_VARIABLE}=${marker}\0`, ...(leaderPid !== undefined ? { leaderPid } : {}) }),
      }),
    release() {
      // Once the run is over its pid may be reused: it no longer names the run.
      leaderPid = undefined;
    },
  };
}
