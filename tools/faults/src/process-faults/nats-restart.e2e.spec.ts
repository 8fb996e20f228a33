import { startFaultSystem, type FaultSystem } from './fault-system.spec-helper';
import { startPrivateNatsServer, type PrivateNatsServer } from './private-nats.server';

const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));
const SCRIPT = { events: 250, intervalMs: 20 };
const OUTAGE_MS = 5_000;

/**
 * The suite's own nats-server (never the shared one) SIGKILLed mid-run, down for 5 s, then started
 * again on the same port and JetStream store. The outage is longer than the queue's offline window
 * here (3 s): the queue could not hear the daemons either, so it must not judge their silence, and
 * nothing may fail: every task completes, JetStream keeps what it acknowledged, and the projector
 * stores each acknowledged message exactly once.
 */
describe('nats-server killed with SIGKILL and restarted mid-run', () => {
  let nats: PrivateNatsServer | undefined;
  let fault: FaultSystem | undefined;

  beforeAll(async () => {
    nats = await startPrivateNatsServer();
    fault = await startFaultSystem({ daemonId: 'daemon-faults-nats', natsUrl: nats.url });
    await fault.startDaemon();
  }, 120_000);

  afterAll(async () => {
    await fault?.stop();
    await nats?.stop();
  }, 60_000);

  it('loses nothing, duplicates nothing, completes every task and catches up', async () => {
    const system = fault!;
    const before = await Promise.all(Array.from({ length: 4 }, () => system.enqueue(SCRIPT)));
    const { rows: rowsAtKill, running } = await system.waitForMidRun(200);

    await nats!.kill('SIGKILL');
    await sleep(OUTAGE_MS);
    await nats!.restart();
    const restartedAt = performance.now();
    const after = await Promise.all(Array.from({ length: 2 }, () => system.enqueue(SCRIPT)));

    const rows = await system.waitForAllTerminal(120_000);
    const terminalMs = Math.round(performance.now() - restartedAt);
    const { audit, waitedMs } = await system.waitForProjection(60_000);
    const truth = await system.judge({ events: SCRIPT.events, allowedFailureReasons: [] });
    process.stderr.write(
      `\nnats-restart: ${JSON.stringify({ signal: 'SIGKILL', outageMs: OUTAGE_MS, runningAtKill: running, rowsAtKill, tasks: rows.length, allTerminalAfterRestartMs: terminalMs, projectorCaughtUpAfterMs: waitedMs, rows: audit.rows })}\n`,
    );

    expect(rows.map((row) => row.task_id).sort()).toEqual([...before, ...after].sort());
    expect(truth).toEqual({ notTerminal: [], completedWithoutFullTimeline: [], timelineGaps: [], unexplainedFailures: [], retriesMissing: [] });
    expect({ missing: audit.missing, duplicated: audit.duplicated, unexpected: audit.unexpected, mismatched: audit.mismatched }).toEqual({ missing: [], duplicated: [], unexpected: [], mismatched: [] });
    expect(audit.rows).toBe(audit.expectedRows);
    expect(audit.rows).toBe(rows.length * SCRIPT.events);
  }, 300_000);
});
