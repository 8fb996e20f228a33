import { createTestDatabase, itOnPostgresServer, type TestDatabase } from '@switchyard/testing';
import { startFaultSystem, type FaultSystem } from './fault-system.spec-helper';
import { startTcpFaultProxy, type TcpFaultProxy } from './tcp-fault.proxy';

const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));
const SCRIPT = { events: 300, intervalMs: 20 };
const OUTAGE_MS = 30_000;

/**
 * Postgres gone for 30 s mid-run. The shared server cannot be stopped, so the services reach their
 * database through a TCP proxy the test cuts: every live connection is reset and new ones are
 * refused for 30 s, then it listens again (the test itself reads Postgres directly). Every task
 * completes (no daemon died), nothing acknowledged is lost or duplicated, the projector catches up.
 */
describe('Postgres unreachable for 30 s mid-run', () => {
  let database: TestDatabase | undefined;
  let proxy: TcpFaultProxy | undefined;
  let fault: FaultSystem | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    const direct = new URL(database.url);
    proxy = await startTcpFaultProxy({ targetHost: direct.hostname, targetPort: Number(direct.port || 5432) });
    const proxied = new URL(database.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    fault = await startFaultSystem({
      daemonId: 'daemon-faults-postgres',
      databaseUrl: proxied.toString(),
      observerDatabaseUrl: database.url,
      queueEnv: { QUEUE_LEASE_MS: '30000', QUEUE_RUNTIME_OFFLINE_AFTER_MS: '15000' },
    });
    await fault.startDaemon();
  }, 120_000);

  afterAll(async () => {
    await proxy?.restore();
    await fault?.stop();
    await proxy?.close();
    await database?.drop();
  }, 60_000);

  itOnPostgresServer(
    'loses nothing, duplicates nothing, completes every task and catches up',
    async () => {
      const system = fault!;
      const before = await Promise.all(Array.from({ length: 4 }, () => system.enqueue(SCRIPT)));
      const { rows: rowsAtCut, running } = await system.waitForMidRun(300);
      const connectionsAtCut = proxy!.stats().open;

      await proxy!.cut();
      await sleep(OUTAGE_MS);
      await proxy!.restore();
      const restoredAt = performance.now();
      const after = await Promise.all(Array.from({ length: 2 }, () => system.enqueue(SCRIPT)));

      const rows = await system.waitForAllTerminal(150_000);
      const terminalMs = Math.round(performance.now() - restoredAt);
      const { audit, waitedMs } = await system.waitForProjection(60_000);
      const truth = await system.judge({ events: SCRIPT.events, allowedFailureReasons: [] });
      process.stderr.write(
        `\npostgres-outage: ${JSON.stringify({ how: 'tcp proxy cut', outageMs: OUTAGE_MS, connectionsAtCut, runningAtCut: running, rowsAtCut, tasks: rows.length, allTerminalAfterRestoreMs: terminalMs, projectorCaughtUpAfterMs: waitedMs, rows: audit.rows })}\n`,
      );

      expect(rows.map((row) => row.task_id).sort()).toEqual([...before, ...after].sort());
      expect(truth).toEqual({ notTerminal: [], completedWithoutFullTimeline: [], timelineGaps: [], unexplainedFailures: [], retriesMissing: [] });
      expect({ missing: audit.missing, duplicated: audit.duplicated, unexpected: audit.unexpected, mismatched: audit.mismatched }).toEqual({ missing: [], duplicated: [], unexpected: [], mismatched: [] });
      expect(audit.rows).toBe(rows.length * SCRIPT.events);
    },
    300_000,
  );
});
