import { spawn } from 'node:child_process';
import path from 'node:path';
import type { BenchSystem } from './bench-system';
import { fakePrompt } from './fake-agent/fake-prompt';
import { SPAWN_LOG_VARIABLE } from './fake-agent/spawn-log';
import { watchSpawnLog, type SpawnLogWatcher } from './fake-agent/spawn-log.watcher';
import { format, latencyCell, ratioCell, type TableRow } from './report-table';
import { summarizeLatencies, wallClockMs, type LatencySummary } from './statistics';

export interface DispatchFigures {
  readonly tasks: number;
  /** `POST /api/tasks` sent → the fake agent's process began (its `performance.timeOrigin`). */
  readonly restToSpawn: LatencySummary;
  /** `POST /api/tasks` sent → its 201 received (gateway + queue enqueue). */
  readonly restAnswered: LatencySummary;
  /** `child_process.spawn` of the same fake agent in the bench → its process began: the floor. */
  readonly bareSpawn: LatencySummary;
}

const SPAWN_TIMEOUT_MS = 30_000;

/**
 * REST task creation → agent process spawned, one task at a time on an otherwise idle system
 * (gateway, queue, session-resume, transcript, one daemon), each task finished before the next.
 * Both ends are wall-clock readings of one machine: the bench's before the POST, the agent's
 * `performance.timeOrigin`.
 */
export async function measureDispatch(options: { readonly system: BenchSystem; readonly tasks: number; readonly warmup: number }): Promise<DispatchFigures> {
  const { system } = options;
  const gateway = await system.gateway();
  const daemon = await system.sharedDaemon();
  const spawnLog = watchSpawnLog(path.join(system.temporaryDirectory('dispatch'), 'spawns.jsonl'));
  try {
    const agentId = await gateway.createAgent({ name: `bench-dispatch-${Date.now()}`, runtimeId: daemon.runtimeId, env: { [SPAWN_LOG_VARIABLE]: spawnLog.file } });
    const restToSpawn: number[] = [];
    const restAnswered: number[] = [];
    for (let index = 0; index < options.warmup + options.tasks; index += 1) {
      const sentAt = wallClockMs();
      const task = await gateway.createTask({ agentId, prompt: fakePrompt({ events: 1, rate: 1_000 }) });
      const answeredAt = wallClockMs();
      const spawned = await spawnLog.waitFor({ event: 'spawned', taskId: task.taskId, timeoutMs: SPAWN_TIMEOUT_MS });
      const finished = await gateway.waitForTask({ taskId: task.taskId, states: ['completed', 'failed', 'cancelled'], timeoutMs: 30_000 });
      if (finished.status !== 'completed') throw new Error(`dispatch task ${task.taskId} ended ${finished.status} (${finished.failureReason ?? 'no reason'})`);
      if (index < options.warmup) continue;
      restToSpawn.push(spawned.startedAt - sentAt);
      restAnswered.push(answeredAt - sentAt);
    }
    const bareSpawn = await measureBareSpawn({ executable: system.fakeClaude().executable, spawnLog, samples: options.tasks, warmup: options.warmup });
    return { tasks: options.tasks, restToSpawn: summarizeLatencies(restToSpawn), restAnswered: summarizeLatencies(restAnswered), bareSpawn };
  } finally {
    spawnLog.close();
  }
}

/** The same `claude` executable spawned by the bench itself, timed to the same start stamp. */
async function measureBareSpawn(options: { readonly executable: string; readonly spawnLog: SpawnLogWatcher; readonly samples: number; readonly warmup: number }): Promise<LatencySummary> {
  const latencies: number[] = [];
  for (let index = 0; index < options.warmup + options.samples; index += 1) {
    const taskId = `bare-spawn-${index}`;
    const sentAt = wallClockMs();
    const child = spawn(options.executable, [], {
      env: { PATH: process.env['PATH'] ?? '', [SPAWN_LOG_VARIABLE]: options.spawnLog.file, SWITCHYARD_TASK_ID: taskId },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const spawned = await options.spawnLog.waitFor({ event: 'spawned', taskId, timeoutMs: SPAWN_TIMEOUT_MS });
      if (index >= options.warmup) latencies.push(spawned.startedAt - sentAt);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  }
  return summarizeLatencies(latencies);
}

export function dispatchRows(figures: DispatchFigures): TableRow[] {
  return [
    ['bare spawn of the fake agent (baseline)', latencyCell(figures.bareSpawn), `${figures.bareSpawn.count} spawns`, '1.00'],
    ['REST create -> 201 (gateway + queue)', latencyCell(figures.restAnswered), `${figures.tasks} tasks, one at a time`, ratioCell(figures.restAnswered.p50, figures.bareSpawn.p50, 'p50 of bare spawn')],
    [
      'REST create -> agent spawned',
      latencyCell(figures.restToSpawn),
      `${figures.tasks} tasks, one at a time`,
      `${ratioCell(figures.restToSpawn.p50, figures.bareSpawn.p50, 'p50 of bare spawn')}, +${format(figures.restToSpawn.p50 - figures.bareSpawn.p50, 1)} ms`,
    ],
  ];
}
