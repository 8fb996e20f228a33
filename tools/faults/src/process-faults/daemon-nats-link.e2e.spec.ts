import { randomBytes } from 'node:crypto';
import { prepareCgroupParent, removeCgroupParent } from '@switchyard/agent-adapters';
import { findQueuedTaskById } from '@switchyard/persistence';
import { testNatsUrl } from '@switchyard/testing';
import { startFaultSystem, type FaultSystem } from './fault-system.spec-helper';
import type { SteadyScript } from './steady-agent.installer';
import type { TaskRow } from './task-truth';
import { queryRows, withSqlRunner } from './timeline-audit';
import { startTcpFaultProxy, type TcpFaultProxy } from './tcp-fault.proxy';

const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** The queue keeps a silent daemon's attempts this long (QUEUE_RECONNECT_GRACE_MS). */
const GRACE_MS = 45_000;
/** A lid closed for 30 s: within the grace. */
const SHORT_CUT_MS = 30_000;
/** Longer than the grace: the attempts are lost. */
const LONG_CUT_MS = 50_000;
/** Each run outlasts the cut it meets: 45 s and 70 s of agent output. */
const SPANS_SHORT_CUT: SteadyScript = { events: 450, intervalMs: 100 };
const SPANS_LONG_CUT: SteadyScript = { events: 700, intervalMs: 100 };
const TERMINAL = ['completed', 'failed', 'cancelled'];

/**
 * The daemon's NATS link cut by a TCP fault proxy between the daemon and NATS (the services keep
 * theirs), as when a laptop sleeps or changes networks: every live connection is reset and new
 * ones are refused until the proxy listens again. One system for every scenario of the link and of
 * the run's process tree; each judges every task so far with the suite's timeline audit.
 */
describe('daemon cut off from NATS, and escaped agent processes', () => {
  let proxy: TcpFaultProxy | undefined;
  let fault: FaultSystem | undefined;

  beforeAll(async () => {
    const nats = new URL(testNatsUrl());
    proxy = await startTcpFaultProxy({ targetHost: nats.hostname, targetPort: Number(nats.port) });
    fault = await startFaultSystem({
      daemonId: 'daemon-faults-link',
      daemonNatsUrl: `nats://127.0.0.1:${proxy.port}`,
      queueEnv: { QUEUE_RECONNECT_GRACE_MS: String(GRACE_MS), QUEUE_LEASE_MS: '15000' },
    });
    await fault.startDaemon();
  }, 120_000);

  afterAll(async () => {
    await proxy?.restore();
    await fault?.stop();
    await proxy?.close();
  }, 60_000);

  const rowsOf = async (taskIds: readonly string[]): Promise<Map<string, number>> => {
    const rows = await queryRows<{ task_id: string; max_seq: number }>(fault!.observerDatabaseUrl, 'select task_id, max(seq)::int as max_seq from task_message where task_id = any($1) group by task_id', [taskIds]);
    return new Map(rows.map((row) => [row.task_id, row.max_seq]));
  };
  const waitUntil = async <T>(description: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> => {
    for (const deadline = Date.now() + timeoutMs; ; await sleep(100)) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}`);
    }
  };
  /** Every one of these tasks running, each with some timeline stored. */
  const waitUntilRunning = (taskIds: readonly string[]): Promise<true> =>
    waitUntil('the runs to be under way', 90_000, async () => {
      const running = (await fault!.tasks()).filter((task) => taskIds.includes(task.task_id) && task.status === 'running').length;
      return running === taskIds.length && (await rowsOf(taskIds)).size === taskIds.length ? true : undefined;
    });
  const waitForAllTerminal = (timeoutMs: number): Promise<TaskRow[]> => fault!.waitForAllTerminal(timeoutMs);
  const expectTimelineExact = async (): Promise<void> => {
    const { audit } = await fault!.waitForProjection(60_000);
    expect({ missing: audit.missing, duplicated: audit.duplicated, unexpected: audit.unexpected, mismatched: audit.mismatched }).toEqual({ missing: [], duplicated: [], unexpected: [], mismatched: [] });
    expect(audit.rows).toBe(audit.expectedRows);
  };
  const connectionOf = (taskId: string) => withSqlRunner(fault!.observerDatabaseUrl, async (runner) => (await findQueuedTaskById(runner, taskId))?.connection);

  it('cut for 30 s with runs in flight: the runs carry on, show reconnecting meanwhile, and complete with every message once; work queued meanwhile ages out by its TTL', async () => {
    const system = fault!;
    const runs = await Promise.all(Array.from({ length: 4 }, () => system.enqueue(SPANS_SHORT_CUT)));
    await waitUntilRunning(runs);

    await proxy!.cut();
    const cutAt = performance.now();
    // Queued while the laptop sleeps, with a 3 s TTL: it waits for nobody.
    const aged = await system.enqueue({ events: 10, intervalMs: 10 }, { queuedTtlMs: 3_000 });
    await waitUntil('the live attempts to show reconnecting', SHORT_CUT_MS, async () => ((await Promise.all(runs.map(connectionOf))).every((connection) => connection === 'reconnecting') ? true : undefined));
    const reconnectingAfterMs = Math.round(performance.now() - cutAt);
    await sleep(SHORT_CUT_MS - (performance.now() - cutAt));
    await proxy!.restore();
    const restoredAt = performance.now();

    const rows = await waitForAllTerminal(120_000);
    const terminalMs = Math.round(performance.now() - restoredAt);
    const truth = await system.judge({ events: SPANS_SHORT_CUT.events, allowedFailureReasons: ['expired'], only: [...runs, aged] });
    process.stderr.write(`\nnats-link-cut-30s: ${JSON.stringify({ how: 'tcp proxy between daemon and NATS', cutMs: SHORT_CUT_MS, graceMs: GRACE_MS, reconnectingAfterMs, allTerminalAfterRestoreMs: terminalMs, tasks: rows.length })}\n`);

    expect(rows.filter((row) => runs.includes(row.task_id)).map((row) => [row.status, row.failure_reason])).toEqual(runs.map(() => ['completed', null]));
    expect(rows.find((row) => row.task_id === aged)).toMatchObject({ status: 'failed', failure_reason: 'expired', attempt: 0 });
    const [agedEnding] = await queryRows<{ message: string }>(system.observerDatabaseUrl, `select payload->'payload'->>'message' as message from outbox_event where aggregate_id = $1 and type = 'task.expired'`, [aged]);
    expect(agedEnding?.message).toMatch(/past its TTL/);
    expect(truth).toEqual({ notTerminal: [], completedWithoutFullTimeline: [], timelineGaps: [], unexplainedFailures: [], retriesMissing: [] });
    await expectTimelineExact();
    expect(await Promise.all(runs.map(connectionOf))).toEqual(runs.map(() => null));
  }, 300_000);

  it('cut for longer than the grace: the attempts fail runtime_offline and are retried; the returning daemon stops the old runs at once and their buffered messages land in the old timelines', async () => {
    const system = fault!;
    const runs = await Promise.all(Array.from({ length: 3 }, () => system.enqueue(SPANS_LONG_CUT)));
    await waitUntilRunning(runs);

    await proxy!.cut();
    const storedAtCut = await rowsOf(runs);
    await sleep(LONG_CUT_MS);
    const lostWhileAway = (await system.tasks()).filter((task) => runs.includes(task.task_id) && task.status === 'failed' && task.failure_reason === 'runtime_offline').length;
    await proxy!.restore();
    const restoredAt = performance.now();
    await waitUntil('the old runs to stop', 60_000, () => Promise.resolve(system.agentProcesses(runs).length === 0 ? true : undefined));
    const oldRunsStoppedMs = Math.round(performance.now() - restoredAt);

    const rows = await waitForAllTerminal(180_000);
    const truth = await system.judge({ events: SPANS_LONG_CUT.events, allowedFailureReasons: ['runtime_offline'], only: runs });
    await expectTimelineExact();
    const storedAtEnd = await rowsOf(runs);
    process.stderr.write(
      `\nnats-link-cut-past-grace: ${JSON.stringify({ cutMs: LONG_CUT_MS, graceMs: GRACE_MS, lostWhileAway, oldRunsStoppedAfterRestoreMs: oldRunsStoppedMs, seqAtCut: [...storedAtCut.values()], seqAtEnd: [...storedAtEnd.values()], endings: rows.filter((row) => !runs.includes(row.task_id)).map((row) => `${row.status}${row.failure_reason ? ` ${row.failure_reason}` : ''}`) })}\n`,
    );

    expect(lostWhileAway).toBe(runs.length);
    const retries = rows.filter((row) => row.retry_of_task_id !== null && runs.includes(row.retry_of_task_id));
    expect(retries.map((row) => row.status)).toEqual(runs.map(() => 'completed'));
    for (const taskId of runs) {
      // What the agent said while the link was down reached the old attempt's timeline after it came back...
      expect(storedAtEnd.get(taskId)!).toBeGreaterThan(storedAtCut.get(taskId)!);
      // ...and the run was stopped, not left to finish: fewer than all of its events, and the timeline says why.
      expect(storedAtEnd.get(taskId)!).toBeLessThan(SPANS_LONG_CUT.events);
    }
    const notices = await queryRows<{ task_id: string; content: string }>(system.observerDatabaseUrl, `select task_id, content from task_message where notice_code = 'attempt_given_up' and task_id = any($1)`, [runs]);
    expect(notices.map((notice) => notice.task_id).sort()).toEqual([...runs].sort());
    expect(notices[0]!.content).toMatch(/gave this attempt up while the daemon could not reach it \(terminal_state/);
    expect(truth).toEqual({ notTerminal: [], completedWithoutFullTimeline: [], timelineGaps: [], unexplainedFailures: [], retriesMissing: [] });
  }, 400_000);

  it('cancel ends a run whose CLI double-forked a sleep and started a setsid one: no process of the run is left, with a cgroup and with the marker sweep', async () => {
    const system = fault!;
    const cgroups = prepareCgroupParent(`faults-probe-${randomBytes(4).toString('hex')}`);
    if ('directory' in cgroups) removeCgroupParent(cgroups.directory);
    // Where this machine lets a daemon make cgroups, prove both mechanisms; else the marker alone.
    const mechanisms = 'directory' in cgroups ? (['cgroup', 'marker'] as const) : (['marker'] as const);
    const outcomes: Array<{ mechanism: string; processesBeforeCancel: number; left: number }> = [];
    const cancelled: string[] = [];
    for (const mechanism of mechanisms) {
      await system.daemon()!.stop();
      await system.startDaemon({ DAEMON_PROCESS_CONTAINMENT: mechanism });
      const taskId = await system.enqueue({ events: 600, intervalMs: 100, escape: true });
      // The agent and both sleeps carry the run's environment.
      const before = await waitUntil('the agent and its escaped children', 60_000, () => {
        const found = system.agentProcesses([taskId]);
        return Promise.resolve(found.length >= 3 ? found.length : undefined);
      });

      await system.cancel(taskId);
      cancelled.push(taskId);
      await waitUntil('the task to end cancelled', 60_000, async () => {
        const row = (await system.tasks()).find((task) => task.task_id === taskId);
        return row && TERMINAL.includes(row.status) ? row : undefined;
      });

      outcomes.push({ mechanism, processesBeforeCancel: before, left: system.agentProcesses([taskId]).length });
    }
    process.stderr.write(`\nescaped-processes-cancel: ${JSON.stringify(outcomes)}\n`);

    expect(outcomes.map((outcome) => outcome.left)).toEqual(mechanisms.map(() => 0));
    const truth = await system.judge({ events: 600, allowedFailureReasons: [], cancelled, only: cancelled });
    expect(truth).toEqual({ notTerminal: [], completedWithoutFullTimeline: [], timelineGaps: [], unexplainedFailures: [], retriesMissing: [] });
    await expectTimelineExact();
  }, 240_000);
});
