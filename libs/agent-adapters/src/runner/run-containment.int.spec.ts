import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { startAgentProcess } from './agent-process.runner';
import { prepareCgroupParent, removeCgroupParent } from './cgroup.containment';
import { environmentHasEntryStartingWith, readProcessTable } from './process-table';
import { RUN_MARKER_VARIABLE, type RunContainments } from './run-containment';
import { ContainmentUnavailableError, createRunContainments } from './run-containments.factory';

/**
 * A CLI that leaves two processes behind the way agents' dev servers and watchers do, then exits:
 * a `sleep` double-forked out of a subshell (an orphan in the CLI's group) and a `setsid` child (an
 * orphan in a session and group of its own, which no signal to the CLI's group reaches). Each
 * prints its pid; with `stay`, the CLI itself keeps running (for a cancel).
 */
const ESCAPING_CLI = [
  '( sleep 300 & echo "double-forked $!" ) ;',
  'setsid sleep 301 & echo "setsid $!" ;',
  // $! is known before the child has called setsid(): the test waits for its session, below.
  'if [ "$1" = stay ]; then exec sleep 302; fi',
].join(' ');

const isAlive = (pid: number): boolean => readProcessTable().some((entry) => entry.pid === pid);
const sessionOf = (pid: number): number => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[3]);

/** Runs the escaping CLI under the containment; resolves with the leftovers' pids once both exist. */
async function runEscapingCli(containments: RunContainments, mode: 'exit' | 'stay') {
  const lines: string[] = [];
  const agentProcess = startAgentProcess({
    executable: '/bin/sh',
    args: ['-c', ESCAPING_CLI, 'escaping-cli', mode],
    cwd: process.cwd(),
    env: { PATH: '/usr/bin:/bin' },
    containment: containments.forRun(),
    onLine: (line) => lines.push(line),
    onOversizedLine: () => undefined,
    killGraceMs: 500,
  });
  while (lines.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
  const pidOf = (label: string): number => Number(lines.find((line) => line.startsWith(label))!.split(' ')[1]);
  const leftovers = { doubleForked: pidOf('double-forked'), setsid: pidOf('setsid') };
  while (isAlive(leftovers.setsid) && sessionOf(leftovers.setsid) !== leftovers.setsid) await new Promise((resolve) => setImmediate(resolve));
  return { agentProcess, leftovers };
}

const made: RunContainments[] = [];
function containmentsFor(mode: 'auto' | 'cgroup' | 'marker', scope = `test-${randomBytes(6).toString('hex')}`): RunContainments {
  const containments = createRunContainments({ mode, scope });
  made.push(containments);
  return containments;
}
afterAll(() => made.forEach((containments) => containments.close()));

const cgroupParent = prepareCgroupParent(`test-probe-${randomBytes(4).toString('hex')}`);
const cgroupsHere = 'directory' in cgroupParent;
if ('directory' in cgroupParent) removeCgroupParent(cgroupParent.directory);

describe('run containment: every descendant of a run dies', () => {
  const mechanisms = cgroupsHere ? (['cgroup', 'marker'] as const) : (['marker'] as const);

  it.each(mechanisms)('%s: ends the double-forked and setsid children a CLI leaves behind when it exits', async (mode) => {
    const { agentProcess, leftovers } = await runEscapingCli(containmentsFor(mode), 'exit');

    const exit = await agentProcess.exited;

    expect(exit.exitCode).toBe(0);
    // The double-forked one is still in the CLI's process group, which is ended first; the setsid
    // one left it and its parent link: only the containment finds it.
    expect(exit.containment).toEqual({ mechanism: mode, swept: 1, left: 0 });
    expect([isAlive(leftovers.doubleForked), isAlive(leftovers.setsid)]).toEqual([false, false]);
  });

  it.each(mechanisms)('%s: ends them on cancel with the CLI, and the run is over only once they are gone', async (mode) => {
    const { agentProcess, leftovers } = await runEscapingCli(containmentsFor(mode), 'stay');

    await agentProcess.kill('cancel');

    expect([isAlive(leftovers.doubleForked), isAlive(leftovers.setsid)]).toEqual([false, false]);
    const exit = await agentProcess.exited;
    expect(exit.killReason).toBe('cancel');
    expect(exit.containment?.left).toBe(0);
  });

  it('marks every process of a run with its own marker, and a sweep never touches another run’s', async () => {
    const containments = containmentsFor('marker');
    const bystander = await runEscapingCli(containments, 'stay');
    const { agentProcess } = await runEscapingCli(containments, 'exit');

    await agentProcess.exited;

    expect(isAlive(bystander.leftovers.setsid)).toBe(true);
    expect(isAlive(bystander.leftovers.doubleForked)).toBe(true);
    await bystander.agentProcess.kill('cancel');
  });

  it('ends at the next boot what a killed daemon’s runs left, and only its own', async () => {
    const scope = `test-${randomBytes(6).toString('hex')}`;
    const spawnMarked = (marker: string): number => {
      const child = spawn('/bin/sleep', ['300'], { detached: true, stdio: 'ignore', env: { [RUN_MARKER_VARIABLE]: marker } });
      child.unref();
      return child.pid as number;
    };
    const ours = spawnMarked(`${scope}:run1`);
    const anotherDaemons = spawnMarked(`test-other-${randomBytes(4).toString('hex')}:run1`);
    try {
      expect(environmentHasEntryStartingWith(ours, `${RUN_MARKER_VARIABLE}=${scope}:`)).toBe(true);

      const sweep = await containmentsFor('auto', scope).sweepLeftovers({ graceMs: 500 });

      expect(sweep.swept).toBe(1);
      expect(isAlive(ours)).toBe(false);
      expect(isAlive(anotherDaemons)).toBe(true);
    } finally {
      process.kill(anotherDaemons, 'SIGKILL');
    }
  });

  it('chooses a cgroup where the daemon may make one, and says why not elsewhere; `cgroup` refuses to boot without', () => {
    const auto = containmentsFor(cgroupsHere ? 'cgroup' : 'marker');
    if (cgroupsHere) {
      expect(containmentsFor('auto').mechanism).toBe('cgroup');
      expect(auto.description).toMatch(/cgroup v2 per run under \//);
    } else {
      expect(() => containmentsFor('cgroup')).toThrow(ContainmentUnavailableError);
      expect(auto.description).toMatch(/no cgroup/);
    }
    expect(containmentsFor('marker').mechanism).toBe('marker');
  });
});
