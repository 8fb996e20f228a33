import type { DataSource } from 'typeorm';

export type OverdueKind = 'runtime_offline' | 'start_deadline' | 'lease' | 'expired' | 'runtime_long_offline';

export interface OverdueTask {
  readonly kind: OverdueKind;
  readonly taskId: string;
  readonly attempt: number;
  readonly daemonId: string | null;
}

export interface OverdueWorkWindows {
  /** Silence that makes a runtime offline: no new claims, and its live attempts are in their grace. */
  readonly offlineAfterMs: number;
  /** Silence after which a live attempt is lost (`runtime_offline`). */
  readonly reconnectGraceMs: number;
  readonly startDeadlineMs: number;
  readonly leaseMs: number;
  readonly expireOfflineQueuedAfterMs: number;
}

/**
 * Everything the sweeper must act on at `now` (the queue's clock, the same one its decisions use):
 * live attempts whose daemon has given no sign of life for the reconnect grace, missed start
 * deadlines and leases, and queued work that expired or whose runtime has been gone too long. A
 * sign of life is a heartbeat of the runtime, or the attempt's own claim or latest renewal (its
 * start deadline or lease, less their window): a daemon that claims right after a reconnect, before
 * its first heartbeat is recorded, is alive.
 *
 * A deadline is missed only by a daemon that could have kept it: one heard now (within the offline
 * window) and for at least that deadline's window since its heartbeats resumed (`online_since`). A
 * daemon that is silent is in its reconnect grace, where renewals cannot reach the queue; one just
 * back gets a whole window to renew before its old deadlines count. A runtime never heard from (no
 * presence row) is judged by its deadlines alone.
 */
export async function findOverdueWork(dataSource: DataSource, options: { readonly now: Date; readonly windows: OverdueWorkWindows; readonly limit: number }): Promise<OverdueTask[]> {
  const { windows } = options;
  const heardFor = (windowParameter: string): string =>
    `(p.runtime_id is null or (p.last_heartbeat_at >= $1::timestamptz - make_interval(secs => $2 / 1000.0)
        and (p.online_since is null or p.online_since <= $1::timestamptz - make_interval(secs => ${windowParameter} / 1000.0))))`;
  const rows = await dataSource.query<Array<{ kind: OverdueKind; task_id: string; attempt: number; daemon_id: string | null }>>(
    `select 'runtime_offline' as kind, t.task_id, t.attempt, t.daemon_id
       from agent_task_queue t join runtime_presence p on p.runtime_id = t.runtime_id
      where t.status in ('dispatched', 'waiting_local_directory', 'running')
        and greatest(p.last_heartbeat_at,
                     t.start_by - make_interval(secs => $4 / 1000.0),
                     t.lease_expires_at - make_interval(secs => $5 / 1000.0)) < $1::timestamptz - make_interval(secs => $3 / 1000.0)
     union all
     select 'start_deadline', t.task_id, t.attempt, t.daemon_id
       from agent_task_queue t left join runtime_presence p on p.runtime_id = t.runtime_id
      where t.status in ('dispatched', 'waiting_local_directory') and t.start_by < $1 and ${heardFor('$4')}
     union all
     select 'lease', t.task_id, t.attempt, t.daemon_id
       from agent_task_queue t left join runtime_presence p on p.runtime_id = t.runtime_id
      where t.status = 'running' and t.lease_expires_at < $1 and ${heardFor('$5')}
     union all
     select 'expired', task_id, attempt, daemon_id from agent_task_queue where status in ('queued', 'deferred') and expires_at < $1
     union all
     select 'runtime_long_offline', t.task_id, t.attempt, t.daemon_id
       from agent_task_queue t join runtime_presence p on p.runtime_id = t.runtime_id
      where t.status in ('queued', 'deferred') and p.last_heartbeat_at < $1::timestamptz - make_interval(secs => $6 / 1000.0)
     limit $7`,
    [options.now.toISOString(), windows.offlineAfterMs, windows.reconnectGraceMs, windows.startDeadlineMs, windows.leaseMs, windows.expireOfflineQueuedAfterMs, options.limit],
  );
  return rows.map((row) => ({ kind: row.kind, taskId: row.task_id, attempt: row.attempt, daemonId: row.daemon_id }));
}

/** Marks runtimes silent past the window as offline (once), for the gateway's runtime list and task views. */
export async function markSilentRuntimesOffline(dataSource: DataSource, options: { readonly now: Date; readonly offlineAfterMs: number }): Promise<void> {
  await dataSource.query(
    `update runtime_presence set offline_since = $1
      where offline_since is null and last_heartbeat_at < $1::timestamptz - make_interval(secs => $2 / 1000.0)`,
    [options.now.toISOString(), options.offlineAfterMs],
  );
}
