import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { findRunProcesses, newRunMarker, sweepProcesses } from './marker.containment';
import { RUN_MARKER_VARIABLE, type ContainmentSweep, type RunContainment } from './run-containment';

const POLL_MS = 25;
const KILL_WAIT_MS = 5_000;

const delay = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * Where this process's cgroup v2 sits in the file system: the cgroup2 mount (`/sys/fs/cgroup`, or
 * `/sys/fs/cgroup/unified` on a hybrid host) joined with the path of `/proc/self/cgroup`'s `0::`
 * line. Undefined off Linux or without a cgroup2 mount.
 */
export function ownCgroupDirectory(): string | undefined {
  let mountInfo: string;
  let membership: string;
  try {
    mountInfo = readFileSync('/proc/self/mountinfo', 'utf8');
    membership = readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    return undefined;
  }
  // mountinfo: id parent major:minor root mountpoint options ... - fstype source superoptions
  const mount = mountInfo
    .split('\n')
    .map((line) => line.split(' '))
    .find((fields) => fields[fields.indexOf('-') + 1] === 'cgroup2');
  const own = membership.split('\n').find((line) => line.startsWith('0::'));
  if (!mount || mount[4] === undefined || own === undefined) return undefined;
  const relative = own.slice(3).trim();
  // A cgroup namespace whose root is not ours shows the path relative to the mount's root.
  const mountRoot = mount[3] ?? '/';
  const inMount = relative.startsWith(mountRoot) ? relative.slice(mountRoot.length) : relative;
  return path.join(mount[4], inMount);
}

/**
 * The folder under which this daemon makes one cgroup per run (`<own cgroup>/switchyard-<scope>`),
 * made now; undefined, with the reason, when the daemon may not make or use one there.
 */
export function prepareCgroupParent(scope: string): { readonly directory: string; readonly own: string } | { readonly refused: string } {
  const own = ownCgroupDirectory();
  if (!own) return { refused: 'no cgroup v2 hierarchy is mounted' };
  const directory = path.join(own, `switchyard-${scope}`);
  try {
    mkdirSync(directory, { recursive: true });
    accessSync(path.join(directory, 'cgroup.procs'), constants.W_OK);
    // A run's cgroup is made, entered for the spawn, left and removed this way: prove it once.
    const probe = path.join(directory, `probe-${randomBytes(4).toString('hex')}`);
    mkdirSync(probe);
    try {
      moveSelf(probe);
      moveSelf(own);
    } finally {
      rmdirSync(probe);
    }
  } catch (error) {
    moveSelfHome(own);
    return { refused: `cannot manage cgroups under ${own}: ${(error as Error).message}` };
  }
  return { directory, own };
}

/** Moves this process (all its threads) into the cgroup; its children are born there from now on. */
function moveSelf(directory: string): void {
  writeFileSync(path.join(directory, 'cgroup.procs'), String(process.pid));
}

/** Back to the daemon's own cgroup, if this process is anywhere else; never throws. */
function moveSelfHome(own: string): void {
  try {
    if (!cgroupProcesses(own).includes(process.pid)) moveSelf(own);
  } catch {
    // Nothing better to do; the sweeps below never signal this process.
  }
}

/** The cgroup's members, this process never among them (it passes through a run's cgroup to spawn its CLI). */
function cgroupProcesses(directory: string): number[] {
  try {
    return readFileSync(path.join(directory, 'cgroup.procs'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map(Number);
  } catch {
    return [];
  }
}

function runMembers(directory: string): number[] {
  return cgroupProcesses(directory).filter((pid) => pid !== process.pid);
}

/** `cgroup.kill` (Linux 5.14) kills every member at once, new forks included; before it, one by one. */
function killCgroup(directory: string): void {
  const killFile = path.join(directory, 'cgroup.kill');
  // Never while this process is inside: cgroup.kill would take the daemon with it.
  if (existsSync(killFile) && !cgroupProcesses(directory).includes(process.pid)) {
    try {
      writeFileSync(killFile, '1');
      return;
    } catch {
      // Fall through to signalling each member.
    }
  }
  for (const pid of runMembers(directory)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

/** TERM to every member, then the cgroup killed after the grace; resolves once it is empty or the wait ends. */
async function emptyCgroup(directory: string, graceMs: number): Promise<ContainmentSweep> {
  const first = runMembers(directory);
  if (first.length === 0) return { mechanism: 'cgroup', swept: 0, left: 0 };
  const seen = new Set(first);
  for (const pid of first) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Gone already.
    }
  }
  for (const deadline = Date.now() + graceMs; Date.now() < deadline; await delay(POLL_MS)) {
    const members = runMembers(directory);
    members.forEach((pid) => seen.add(pid));
    if (members.length === 0) return { mechanism: 'cgroup', swept: seen.size, left: 0 };
  }
  for (const deadline = Date.now() + KILL_WAIT_MS; ; await delay(POLL_MS)) {
    const members = runMembers(directory);
    members.forEach((pid) => seen.add(pid));
    if (members.length === 0 || Date.now() >= deadline) return { mechanism: 'cgroup', swept: seen.size, left: members.length };
    killCgroup(directory);
  }
}

/**
 * The `cgroup` mechanism for one run: a cgroup of its own under the daemon's. The CLI is born in
 * it: the daemon steps into the run's cgroup for the synchronous fork and straight back out, so
 * even what the CLI forks in its first instant stays inside. Should that fail (the daemon lost the
 * right since boot), the run falls back to its marker.
 */
export function cgroupContainment(options: { readonly parent: string; readonly own: string; readonly scope: string }): RunContainment {
  const marker = newRunMarker(options.scope);
  const directory = path.join(options.parent, `run-${marker.split(':')[1]}`);
  let entered = false;
  let leaderPid: number | undefined;
  const markerSweep = (graceMs: number): Promise<ContainmentSweep> =>
    sweepProcesses({ mechanism: 'marker', graceMs, find: () => findRunProcesses({ markerPrefix: `${RUN_MARKER_VARIABLE}=${marker}\0`, ...(leaderPid !== undefined ? { leaderPid } : {}) }) });
  return {
    mechanism: 'cgroup',
    environment: { [RUN_MARKER_VARIABLE]: marker },
    launch(spawn) {
      try {
        mkdirSync(directory);
        moveSelf(directory);
        entered = true;
      } catch {
        // Left to the marker.
      }
      try {
        const child = spawn();
        leaderPid = child.pid;
        return child;
      } finally {
        if (entered) moveSelfHome(options.own);
      }
    },
    sweep: async ({ graceMs }) => (entered ? emptyCgroup(directory, graceMs) : markerSweep(graceMs)),
    release() {
      leaderPid = undefined;
      if (!entered) return;
      try {
        rmdirSync(directory);
      } catch {
        // Still populated (a member outlived SIGKILL): collected with the leftovers at the next boot.
      }
    },
  };
}

/** Removes the daemon's cgroup folder; one still holding a run's cgroup stays (for the next boot's sweep). */
export function removeCgroupParent(parent: string): void {
  try {
    rmdirSync(parent);
  } catch {
    // Not empty, or gone already.
  }
}

/** Empties and removes every run cgroup an earlier process of this daemon left under `parent`. */
export async function sweepLeftoverCgroups(parent: string, graceMs: number): Promise<ContainmentSweep> {
  let swept = 0;
  let left = 0;
  let names: string[];
  try {
    names = readdirSync(parent).filter((name) => name.startsWith('run-'));
  } catch {
    return { mechanism: 'cgroup', swept, left };
  }
  for (const name of names) {
    const directory = path.join(parent, name);
    const outcome = await emptyCgroup(directory, graceMs);
    swept += outcome.swept;
    left += outcome.left;
    try {
      rmdirSync(directory);
    } catch {
      // Still populated: tried again at the next boot.
    }
  }
  return { mechanism: 'cgroup', swept, left };
}
