import type { AuthenticatedNatsCluster } from '@switchyard/messaging';
import { streamPlacement } from '@switchyard/messaging/testing';
import type { ServiceChild, SystemService } from '@switchyard/testing';
import { startFaultSystem, type FaultSystem } from './fault-system.spec-helper';
import { startPrivateNatsCluster } from './private-nats.cluster';
import { queryRows } from './timeline-audit';

const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));
const SCRIPT = { events: 400, intervalMs: 20 };
const DAEMONS = ['daemon-cluster-a', 'daemon-cluster-b'] as const;
const SERVICES: readonly SystemService[] = ['queue', 'session-resume', 'transcript', 'gateway'];
const LEADER_DOWN_MS = 5_000;
const NO_LOSS = { notTerminal: [], completedWithoutFullTimeline: [], timelineGaps: [], unexplainedFailures: [], retriesMissing: [] };

/**
 * Switchyard as a team runs it past one machine: three nats-servers in one JetStream cluster (every
 * catalog stream on 3 replicas), two replicas of every service and two daemons, on one system for
 * both scenarios. Killing the server that leads the timeline stream, then one replica of each
 * service, may fail nothing: every task completes, and every acknowledged timeline message is
 * projected exactly once with no gap (the suite's timeline audit).
 */
describe('a three-server NATS cluster with two replicas of every service and two daemons', () => {
  let cluster: (AuthenticatedNatsCluster & { readonly natsUrl: string }) | undefined;
  let fault: FaultSystem | undefined;
  /** The replica each scenario may kill: the first started of each service. */
  const firstReplicas = new Map<SystemService, ServiceChild>();
  let secondGateway: ServiceChild | undefined;

  beforeAll(async () => {
    cluster = await startPrivateNatsCluster();
    fault = await startFaultSystem({
      daemonId: DAEMONS[0],
      natsUrl: cluster.natsUrl,
      services: SERVICES,
      // Production-like windows: a daemon whose server died reconnects to another within them.
      queueEnv: { QUEUE_RUNTIME_OFFLINE_AFTER_MS: '10000', QUEUE_LEASE_MS: '30000' },
    });
    for (const service of SERVICES) {
      firstReplicas.set(service, fault.system.service(service));
      const second = await fault.system.startService(service);
      if (service === 'gateway') secondGateway = second;
    }
    await fault.startDaemon();
    await fault.startDaemon({}, { daemonId: DAEMONS[1] });
  }, 240_000);

  afterAll(async () => {
    await fault?.stop();
    await cluster?.stop();
  }, 120_000);

  /** Tasks spread over both daemons' runtimes. */
  const enqueueOnBoth = (count: number): Promise<string[]> =>
    Promise.all(Array.from({ length: count }, (_, index) => fault!.enqueue(SCRIPT, { daemonId: DAEMONS[index % DAEMONS.length]! })));

  /** The stream's leader once one is elected other than `not` (JetStream API calls time out during an election). */
  const electedLeader = async (not: string): Promise<{ leader: string; electedWithinMs: number }> => {
    const startedAt = performance.now();
    for (;;) {
      const placement = await streamPlacement(fault!.system.connection, 'TASK_EVENTS').catch(() => undefined);
      if (placement?.leader && placement.leader !== not) return { leader: placement.leader, electedWithinMs: Math.round(performance.now() - startedAt) };
      if (performance.now() - startedAt > 60_000) throw new Error(`no TASK_EVENTS leader other than ${not} within 60 s`);
      await sleep(250);
    }
  };

  const settle = async (taskIds: readonly string[]): Promise<{ terminalMs: number; projectedMs: number; rows: number }> => {
    const system = fault!;
    const startedAt = performance.now();
    const rows = await system.waitForAllTerminal(180_000);
    const terminalMs = Math.round(performance.now() - startedAt);
    const { audit, waitedMs } = await system.waitForProjection(60_000);
    const truth = await system.judge({ events: SCRIPT.events, allowedFailureReasons: [], only: taskIds });
    expect(rows.filter((row) => taskIds.includes(row.task_id)).map((row) => row.status)).toEqual(taskIds.map(() => 'completed'));
    expect(truth).toEqual(NO_LOSS);
    // Both daemons ran some of them.
    const runners = await queryRows<{ daemon_id: string }>(system.observerDatabaseUrl, 'select distinct daemon_id from agent_task_queue where task_id = any($1) order by 1', [taskIds]);
    expect(runners.map((row) => row.daemon_id)).toEqual([...DAEMONS]);
    expect({ missing: audit.missing, duplicated: audit.duplicated, unexpected: audit.unexpected, mismatched: audit.mismatched }).toEqual({ missing: [], duplicated: [], unexpected: [], mismatched: [] });
    expect(audit.rows).toBe(audit.expectedRows);
    expect(audit.rows).toBe(rows.length * SCRIPT.events);
    return { terminalMs, projectedMs: waitedMs, rows: audit.rows };
  };

  it('keeps every stream on three servers and loses nothing when the timeline stream leader server is killed mid-run', async () => {
    const system = fault!;
    const placement = await streamPlacement(system.system.connection, 'TASK_EVENTS');
    expect(placement.configuredReplicas).toBe(3);
    expect(placement.replicas).toHaveLength(2);
    expect(placement.leader).not.toBeNull();

    const before = await enqueueOnBoth(6);
    const atKill = await system.waitForMidRun(300);
    const leader = cluster!.member(placement.leader!);
    await leader.kill('SIGKILL');
    const during = await electedLeader(leader.name);
    await sleep(LEADER_DOWN_MS);
    // Work keeps arriving while one server of three is gone.
    const whileDown = await enqueueOnBoth(2);
    await leader.restart();
    const after = await enqueueOnBoth(2);

    const settled = await settle([...before, ...whileDown, ...after]);
    process.stderr.write(
      `\nnats-cluster-leader-kill: ${JSON.stringify({ killed: leader.name, leaderDownMs: LEADER_DOWN_MS, newLeader: during.leader, electedWithinMs: during.electedWithinMs, atKill, tasks: before.length + whileDown.length + after.length, ...settled })}\n`,
    );
  }, 360_000);

  it('loses nothing when one replica of each service is killed mid-run', async () => {
    const system = fault!;
    const rowsSoFar = (await system.tasks()).length * SCRIPT.events;
    const before = await enqueueOnBoth(6);
    const atKill = await system.waitForMidRun(rowsSoFar + 300);
    // All at once: the survivors must take over claims, reports, resume answers and projection.
    await Promise.all([...firstReplicas.values()].map((child) => child.kill('SIGKILL')));
    const after = await enqueueOnBoth(2);

    const settled = await settle([...before, ...after]);
    const ready = await fetch(`${secondGateway!.url}/readyz`);
    process.stderr.write(`\nnats-cluster-replica-kill: ${JSON.stringify({ killed: [...firstReplicas.keys()], atKill, tasks: before.length + after.length, survivingGatewayReady: ready.status, ...settled })}\n`);
    expect(ready.status).toBe(200);
  }, 360_000);
});
