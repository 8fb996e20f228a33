import type { EntityManager } from 'typeorm';
import type { ReleasedAttempt, TaskReleaseOrphansPayload } from '@switchyard/contracts';
import type { RetryBackoffSettings } from '../domain/retry-backoff.policy';
import { applyThenRetry } from '../retry/enqueue-retry';
import type { CommandCause } from '../storage/task.repository';

/**
 * `task.release_orphans`: every attempt still live (`dispatched`, `waiting_local_directory`, `running`) under the daemon's id
 * fails `runtime_recovery` and gets its retry, in the command's transaction. The daemon sends it at
 * boot before its first claim, so each such attempt belonged to its previous, dead process; other
 * daemons' attempts are never touched (the decider also refuses an attempt held by another daemon).
 * Each failure is caused by `orphan:<taskId>:<attempt>`, like the sweeper's `sweep:` ids, and a
 * repeat for an attempt already failed is "already applied" in the decider: at most one retry.
 */
export async function releaseOrphans(options: {
  readonly manager: EntityManager;
  readonly payload: TaskReleaseOrphansPayload;
  readonly cause: CommandCause;
  readonly now: Date;
  readonly backoff: RetryBackoffSettings;
}): Promise<ReleasedAttempt[]> {
  const { manager, payload, now } = options;
  const released: ReleasedAttempt[] = [];
  for (const { taskId, attempt } of await findLiveAttempts(manager, payload.daemonId)) {
    const { decision, state, willRetry } = await applyThenRetry({
      manager,
      now,
      backoff: options.backoff,
      cause: { requestId: `orphan:${taskId}:${attempt}`, correlationId: options.cause.correlationId },
      command: {
        kind: 'runtime_offline',
        taskId,
        attempt,
        daemonId: payload.daemonId,
        reason: 'runtime_recovery',
        now: now.toISOString(),
        message: `Daemon ${payload.daemonId} restarted (booted ${payload.bootedAt}); the run was lost with it`,
      },
    });
    // The rows are locked and match the record, so a refusal cannot happen; should it, the
    // attempt is left to the sweeper rather than failing the whole release.
    if (decision.ok && !decision.alreadyApplied && state.exists) {
      released.push({ taskId, attempt, runtimeId: state.runtimeId, state: state.status, willRetry });
    }
  }
  return released;
}

/**
 * Live attempts held under a daemon id, locked for the release's transaction in the bulk cancel's
 * order (so the two never deadlock). `daemon_id` is the holder of the latest attempt; live rows are
 * few (bounded by the daemons' slots), so it needs no index of its own.
 */
async function findLiveAttempts(manager: EntityManager, daemonId: string): Promise<Array<{ taskId: string; attempt: number }>> {
  const rows = await manager.query<Array<{ task_id: string; attempt: number }>>(
    `select task_id, attempt from agent_task_queue
      where daemon_id = $1 and status in ('dispatched', 'waiting_local_directory', 'running')
      order by enqueued_at, task_id
      for update`,
    [daemonId],
  );
  return rows.map((row) => ({ taskId: row.task_id, attempt: row.attempt }));
}
