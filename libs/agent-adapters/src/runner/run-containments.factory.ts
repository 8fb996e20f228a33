import { cgroupContainment, prepareCgroupParent, removeCgroupParent, sweepLeftoverCgroups } from './cgroup.containment';
import { findRunProcesses, markerContainment, sweepProcesses } from './marker.containment';
import { RUN_MARKER_VARIABLE, type ContainmentSweep, type RunContainments } from './run-containment';

export const CONTAINMENT_MODES = ['auto', 'cgroup', 'marker'] as const;
export type ContainmentMode = (typeof CONTAINMENT_MODES)[number];

export class ContainmentUnavailableError extends Error {
  readonly code = 'containment_unavailable';
}

/**
 * The daemon's containment for its runs, chosen at boot: `auto` takes a cgroup v2 where the daemon
 * may make one and otherwise the marker; `cgroup` refuses to boot without one; `marker` never tries.
 * `scope` names this daemon (one per daemon id and home): markers and cgroups carry it, so a later
 * process of the same daemon finds what an earlier one left, and never another daemon's.
 */
export function createRunContainments(options: { readonly mode: ContainmentMode; readonly scope: string }): RunContainments {
  const { scope } = options;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(scope)) throw new RangeError(`containment scope must be 1-64 letters, digits, _ or -, got "${scope}"`);
  const cgroup = options.mode === 'marker' ? { refused: 'DAEMON_PROCESS_CONTAINMENT=marker' } : prepareCgroupParent(scope);
  if ('directory' in cgroup) {
    const { directory: parent, own } = cgroup;
    return {
      mechanism: 'cgroup',
      description: `a cgroup v2 per run under ${parent}`,
      forRun: () => cgroupContainment({ parent, own, scope }),
      sweepLeftovers: async ({ graceMs }) => merge(await sweepLeftoverCgroups(parent, graceMs), await sweepMarkedLeftovers(scope, graceMs)),
      close: () => removeCgroupParent(parent),
    };
  }
  if (options.mode === 'cgroup') throw new ContainmentUnavailableError(`DAEMON_PROCESS_CONTAINMENT=cgroup, but ${cgroup.refused}`);
  return {
    mechanism: 'marker',
    description: `a /proc sweep by the run's marker, session and group (no cgroup: ${cgroup.refused})`,
    forRun: () => markerContainment({ scope }),
    sweepLeftovers: ({ graceMs }) => sweepMarkedLeftovers(scope, graceMs),
    close: () => undefined,
  };
}

/** Every process carrying a marker of this daemon's scope: runs of an earlier, killed process. */
function sweepMarkedLeftovers(scope: string, graceMs: number): Promise<ContainmentSweep> {
  return sweepProcesses({ mechanism: 'marker', graceMs, find: () => findRunProcesses({ markerPrefix: `${RUN_MARKER_VARIABLE}=${scope}:` }) });
}

function merge(first: ContainmentSweep, second: ContainmentSweep): ContainmentSweep {
  return { mechanism: first.mechanism, swept: first.swept + second.swept, left: first.left + second.left };
}
