import { startFaultSystem, type FaultSystem } from './fault-system.spec-helper';

const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));
const SCRIPT = { events: 200, intervalMs: 15 };

/**
 * The transcript projector and the queue SIGKILLed while they work (the projector mid-batch on a
 * busy stream, the queue amid claims, starts, renewals and reports), then started again. No daemon
 * died, so every task completes; every acknowledged message is projected exactly once.
 */
describe('transcript projector and queue killed with SIGKILL mid-batch', () => {
  let fault: FaultSystem | undefined;

  beforeAll(async () => {
    fault = await startFaultSystem({ daemonId: 'daemon-faults-services', queueEnv: { QUEUE_LEASE_MS: '30000', QUEUE_RUNTIME_OFFLINE_AFTER_MS: '15000' } });
    await fault.startDaemon();
  }, 120_000);

  afterAll(async () => {
    await fault?.stop();
  }, 60_000);

  it('loses nothing, duplicates nothing, completes every task and catches up', async () => {
    const system = fault!;
    const first = await Promise.all(Array.from({ length: 4 }, () => system.enqueue(SCRIPT)));
    const atTranscriptKill = await system.waitForMidRun(250);
    await system.system.service('transcript').kill('SIGKILL');
    // Work keeps arriving while the projector is gone.
    const second = await Promise.all(Array.from({ length: 2 }, () => system.enqueue(SCRIPT)));
    await sleep(1_000);
    await system.system.startService('transcript');

    const third = await Promise.all(Array.from({ length: 4 }, () => system.enqueue(SCRIPT)));
    const atQueueKill = await system.waitForMidRun(atTranscriptKill.rows + 400);
    await system.system.service('queue').kill('SIGKILL');
    await sleep(1_000);
    await system.system.startService('queue');
    const restartedAt = performance.now();
    const fourth = await Promise.all(Array.from({ length: 2 }, () => system.enqueue(SCRIPT)));

    const rows = await system.waitForAllTerminal(120_000);
    const terminalMs = Math.round(performance.now() - restartedAt);
    const { audit, waitedMs } = await system.waitForProjection(60_000);
    const truth = await system.judge({ events: SCRIPT.events, allowedFailureReasons: [] });
    process.stderr.write(
      `\nservice-sigkill: ${JSON.stringify({ atTranscriptKill, atQueueKill, tasks: rows.length, allTerminalAfterQueueRestartMs: terminalMs, projectorCaughtUpAfterMs: waitedMs, rows: audit.rows })}\n`,
    );

    expect(rows.map((row) => row.task_id).sort()).toEqual([...first, ...second, ...third, ...fourth].sort());
    expect(truth).toEqual({ notTerminal: [], completedWithoutFullTimeline: [], timelineGaps: [], unexplainedFailures: [], retriesMissing: [] });
    expect({ missing: audit.missing, duplicated: audit.duplicated, unexpected: audit.unexpected, mismatched: audit.mismatched }).toEqual({ missing: [], duplicated: [], unexpected: [], mismatched: [] });
    expect(audit.rows).toBe(rows.length * SCRIPT.events);
  }, 300_000);
});
