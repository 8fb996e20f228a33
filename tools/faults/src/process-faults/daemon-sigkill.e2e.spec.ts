import type { TaskFailureReason } from '@switchyard/contracts';
import { keepTasksInFlight, startFaultSystem, type FaultSystem } from './fault-system.spec-helper';
import { faultSeed, seededRandom } from './seeded-random';

const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));
const KILLS = 10;
const SCRIPT = { events: 80, intervalMs: 25 };
/**
 * A killed run ends as runtime_recovery when the restarted daemon releases it, or as runtime_offline
 * when it stayed away past the offline window (timeout only if a lease ran out first);
 * a task claimed but not yet started when its daemon died is handed back, or fails not_started on
 * its last attempt.
 */
const KILL_REASONS: TaskFailureReason[] = ['runtime_recovery', 'timeout', 'runtime_offline', 'not_started'];

/**
 * The daemon SIGKILLed at seeded random moments while tasks run, and started again with the same
 * DAEMON_ID and SWITCHYARD_HOME each time: every task still ends (failed truthfully and retried, or
 * completed), and every `task.message` JetStream acknowledged is in `task_message` exactly once.
 * Replay a run with SWITCHYARD_FAULT_SEED=<seed>.
 */
describe('daemon killed with SIGKILL mid-task, 10 times', () => {
  const seed = faultSeed();
  let fault: FaultSystem | undefined;

  beforeAll(async () => {
    fault = await startFaultSystem({ daemonId: 'daemon-faults-sigkill' });
    await fault.startDaemon();
  }, 120_000);

  afterAll(async () => {
    await fault?.stop();
  }, 60_000);

  it('ends every task truthfully and projects every acknowledged message exactly once', async () => {
    const system = fault!;
    const random = seededRandom(seed);
    process.stderr.write(`\ndaemon-sigkill: seed ${seed} (SWITCHYARD_FAULT_SEED=${seed} replays it)\n`);
    let faulting = true;
    const enqueuing = keepTasksInFlight({ system, script: SCRIPT, inFlight: 5, keepGoing: () => faulting });
    const kills: Array<{ runningTasks: number; downMs: number }> = [];
    try {
      for (let kill = 0; kill < KILLS; kill += 1) {
        // A random moment, but always one with runs in flight: mid-task.
        await sleep(random.between(300, 1_500));
        let running = (await system.tasks()).filter((task) => task.status === 'running').length;
        while (running === 0) {
          await sleep(200);
          running = (await system.tasks()).filter((task) => task.status === 'running').length;
        }
        await system.daemon()!.kill('SIGKILL');
        // Down this long, plus the daemon's boot: when the two stay under the queue's 3 s offline
        // window the lease ends the killed runs (timeout), else the runtime goes offline.
        const downMs = Math.round(random.between(0, 1_500));
        kills.push({ runningTasks: running, downMs });
        await sleep(downMs);
        await system.startDaemon();
      }
    } finally {
      faulting = false;
    }
    const taskIds = await enqueuing;
    // After the last restart the daemon stays up: a task enqueued now must complete, whatever the seed.
    const afterFaults = await system.enqueue(SCRIPT);

    const endedAfter = performance.now();
    const rows = await system.waitForAllTerminal(150_000);
    const terminalMs = Math.round(performance.now() - endedAfter);
    const { audit, waitedMs } = await system.waitForProjection(60_000);
    const truth = await system.judge({ events: SCRIPT.events, allowedFailureReasons: KILL_REASONS });
    const count = (predicate: (row: (typeof rows)[number]) => boolean): number => rows.filter(predicate).length;
    process.stderr.write(
      `daemon-sigkill: ${JSON.stringify({
        seed,
        kills,
        tasks: rows.length,
        enqueued: taskIds.length,
        retries: count((row) => row.retry_of_task_id !== null),
        completed: count((row) => row.status === 'completed'),
        failed: Object.fromEntries(KILL_REASONS.map((reason) => [reason, count((row) => row.failure_reason === reason)])),
        allTerminalAfterMs: terminalMs,
        projectorCaughtUpAfterMs: waitedMs,
        rows: audit.rows,
      })}\n`,
    );

    expect(kills).toHaveLength(KILLS);
    expect(truth).toEqual({ notTerminal: [], completedWithoutFullTimeline: [], timelineGaps: [], unexplainedFailures: [], retriesMissing: [] });
    expect({ missing: audit.missing, duplicated: audit.duplicated, unexpected: audit.unexpected, mismatched: audit.mismatched }).toEqual({ missing: [], duplicated: [], unexpected: [], mismatched: [] });
    expect(audit.rows).toBe(audit.expectedRows);
    // Some runs were cut (failed and retried), and the restarted daemon serves the next task.
    expect(rows.some((row) => row.status === 'failed')).toBe(true);
    expect(rows.find((row) => row.task_id === afterFaults)).toMatchObject({ status: 'completed', failure_reason: null });
    // A killed daemon's agents exit with it.
    expect(system.agentProcesses(rows.map((row) => row.task_id))).toEqual([]);
  }, 360_000);
});
