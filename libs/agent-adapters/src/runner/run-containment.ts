/**
 * How a run's whole process tree is found and ended, beyond the CLI's process group: agents start
 * dev servers, watchers and test runners that double-fork or `setsid` out of the group, and whose
 * parent link to the CLI is gone once they are orphans (PPID 1).
 * - `cgroup`: the CLI is moved into a cgroup v2 of its own as soon as it is spawned; whatever it
 *   starts stays in that cgroup whatever it does with sessions, groups or its parent.
 * - `marker`: where the daemon may not create a cgroup, every process whose environment carries the
 *   run's marker variable, or whose session or group is the run's, and their descendants.
 */
export type ContainmentMechanism = 'cgroup' | 'marker';

/** The environment variable that marks every process of a run (inherited unless a process clears its environment). */
export const RUN_MARKER_VARIABLE = 'SWITCHYARD_RUN_MARKER';

export interface ContainmentSweep {
  readonly mechanism: ContainmentMechanism;
  /** Processes of the run found alive and signalled. */
  readonly swept: number;
  /** Processes still alive when the sweep gave up (uninterruptible, or respawning faster than killed). */
  readonly left: number;
}

/** One run's containment: made before the CLI is spawned, released once its tree is gone. */
export interface RunContainment {
  readonly mechanism: ContainmentMechanism;
  /** Added to the CLI's environment. */
  readonly environment: Readonly<Record<string, string>>;
  /**
   * Spawns the CLI inside the containment: `spawn` runs synchronously, and the pid of what it returns
   * (also its process group and session id) leads the run.
   */
  launch<T extends { readonly pid?: number | undefined }>(spawn: () => T): T;
  /**
   * Ends every process of the run still alive: TERM, KILL after the grace, repeated until none is
   * found. Never rejects.
   */
  sweep(options: { readonly graceMs: number }): Promise<ContainmentSweep>;
  /** The run is over: frees what the containment holds (the cgroup). */
  release(): void;
}

/** Makes each run's containment; chosen once, when the daemon boots. */
export interface RunContainments {
  readonly mechanism: ContainmentMechanism;
  /** Why this mechanism (e.g. where the cgroups live, or why none could be made). */
  readonly description: string;
  forRun(): RunContainment;
  /** Ends the processes that runs of an earlier process of this daemon left behind (it was killed). */
  sweepLeftovers(options: { readonly graceMs: number }): Promise<ContainmentSweep>;
  /** The daemon stops: removes what the containment made for itself (its cgroup folder, once empty). */
  close(): void;
}
