import { spawn } from 'node:child_process';
import path from 'node:path';
import type { BenchSystem } from './bench-system';
import { fakePrompt } from './fake-agent/fake-prompt';
import { SPAWN_CHILD_VARIABLE, SPAWN_LOG_VARIABLE } from './fake-agent/spawn-log';
import { watchSpawnLog, type SpawnLogWatcher } from './fake-agent/spawn-log.watcher';
import { identify, waitUntilGone, type ProcessIdentity } from './process-table';
import { format, latencyCell, ratioCell, type TableRow } from './report-table';
import { elapsedMs, summarizeLatencies, type LatencySummary } from './statistics';

export interface CancelFigures {
  readonly tasks: number;
  /** `POST /api/tasks/:id/cancel` sent → the agent and its child both gone from /proc (polled every ms). */
  readonly restToTreeGone: LatencySummary;
  /** The same POST → its 200 received. */
  readonly restAnswered: LatencySummary;
  /** The same fake tree started by the bench: SIGTERM to its group → both gone, polled the same way. */
  readonly bareGroupKill: LatencySummary;
  /** Multica's daemon polls for cancels on this interval: the anchor this figure is read against. */
  readonly multicaPollIntervalMs: number;
}

const MULTICA_CANCEL_POLL_MS = 5_000;
/** Long enough to still be running when cancelled: 10 messages/s for over two hours. */
const LONG_RUN = fakePrompt({ events: 100_000, rate: 10 });
/** A cancel hits a task that has been running a while, not one still being wired up. */
const RUNNING_BEFORE_CANCEL_MS = 200;
const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * REST cancel of a running task → its whole process tree gone. The fake agent starts a child in
 * its process group and logs both pids; the bench watches /proc for them (a zombie counts as gone).
 */
export async function measureCancel(options: { readonly system: BenchSystem; readonly tasks: number; readonly warmup: number }): Promise<CancelFigures> {
  const { system } = options;
  const gateway = await system.gateway();
  const daemon = await system.sharedDaemon();
  const spawnLog = watchSpawnLog(path.join(system.temporaryDirectory('cancel'), 'spawns.jsonl'));
  try {
    const agentId = await gateway.createAgent({
      name: `bench-cancel-${Date.now()}`,
      runtimeId: daemon.runtimeId,
      env: { [SPAWN_LOG_VARIABLE]: spawnLog.file, [SPAWN_CHILD_VARIABLE]: '1' },
    });
    const restToTreeGone: number[] = [];
    const restAnswered: number[] = [];
    for (let index = 0; index < options.warmup + options.tasks; index += 1) {
      const task = await gateway.createTask({ agentId, prompt: LONG_RUN });
      const tree = await treeOf(spawnLog, task.taskId);
      await sleep(RUNNING_BEFORE_CANCEL_MS);
      const sentAt = process.hrtime.bigint();
      await gateway.call('POST', `/api/tasks/${task.taskId}/cancel`, { reason: 'bench' });
      const answered = elapsedMs(sentAt);
      const gone = await waitUntilGone({ processes: tree, since: sentAt, pollIntervalMs: 1, timeoutMs: 30_000 });
      const finished = await gateway.waitForTask({ taskId: task.taskId, states: ['completed', 'failed', 'cancelled'], timeoutMs: 30_000 });
      if (finished.status !== 'cancelled') throw new Error(`cancelled task ${task.taskId} ended ${finished.status}`);
      if (index < options.warmup) continue;
      restToTreeGone.push(gone);
      restAnswered.push(answered);
    }
    const bareGroupKill = await measureBareGroupKill({ executable: system.fakeClaude().executable, spawnLog, samples: options.tasks, warmup: options.warmup });
    return {
      tasks: options.tasks,
      restToTreeGone: summarizeLatencies(restToTreeGone),
      restAnswered: summarizeLatencies(restAnswered),
      bareGroupKill,
      multicaPollIntervalMs: MULTICA_CANCEL_POLL_MS,
    };
  } finally {
    spawnLog.close();
  }
}

async function treeOf(spawnLog: SpawnLogWatcher, taskId: string): Promise<ProcessIdentity[]> {
  const tree = await spawnLog.waitFor({ event: 'tree', taskId, timeoutMs: 30_000 });
  const members = [identify(tree.pid), identify(tree.childPid)];
  if (members.some((member) => member === undefined)) throw new Error(`the fake agent's tree of ${taskId} (pids ${tree.pid}, ${tree.childPid}) was gone before the cancel`);
  return members as ProcessIdentity[];
}

/** The same tree, started detached (its own group) by the bench and killed as the daemon's runner does. */
async function measureBareGroupKill(options: { readonly executable: string; readonly spawnLog: SpawnLogWatcher; readonly samples: number; readonly warmup: number }): Promise<LatencySummary> {
  const latencies: number[] = [];
  for (let index = 0; index < options.warmup + options.samples; index += 1) {
    const taskId = `bare-cancel-${index}`;
    const child = spawn(options.executable, [], {
      detached: true,
      env: { PATH: process.env['PATH'] ?? '', [SPAWN_LOG_VARIABLE]: options.spawnLog.file, [SPAWN_CHILD_VARIABLE]: '1', SWITCHYARD_TASK_ID: taskId },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      child.stdin.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: LONG_RUN } })}\n`);
      const tree = await treeOf(options.spawnLog, taskId);
      await sleep(RUNNING_BEFORE_CANCEL_MS);
      const sentAt = process.hrtime.bigint();
      process.kill(-child.pid!, 'SIGTERM');
      const gone = await waitUntilGone({ processes: tree, since: sentAt, pollIntervalMs: 1, timeoutMs: 30_000 });
      if (index >= options.warmup) latencies.push(gone);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone: the usual case.
      }
      await exited;
    }
  }
  return summarizeLatencies(latencies);
}

export function cancelRows(figures: CancelFigures): TableRow[] {
  const anchor = figures.multicaPollIntervalMs;
  return [
    ['kill fake tree group + wait (baseline)', latencyCell(figures.bareGroupKill), `${figures.bareGroupKill.count} trees`, '1.00'],
    ['REST cancel -> 200', latencyCell(figures.restAnswered), `${figures.tasks} running tasks`, ratioCell(figures.restAnswered.p50, figures.bareGroupKill.p50, 'p50 of bare kill')],
    ['REST cancel -> process tree gone', latencyCell(figures.restToTreeGone), `${figures.tasks} running tasks`, ratioCell(figures.restToTreeGone.p50, figures.bareGroupKill.p50, 'p50 of bare kill')],
    [
      'anchor: Multica daemon polls cancel every 5 s',
      `mean wait ${format(anchor / 2, 0)} ms, worst ${format(anchor, 0)} ms`,
      '(poll interval, not measured)',
      `p99 above is ${format((figures.restToTreeGone.p99 / anchor) * 100, 1)}% of 5 s`,
    ],
  ];
}
