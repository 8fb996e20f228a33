import type { DataSource } from 'typeorm';

export type OverdueKind = 'runtime_offline' | 'start_deadline' | 'lease' | 'expired' | 'runtime_long_offline';

export interface OverdueTask {
  readonly kind: OverdueKind;
  readonly taskId: string;
  readonly attempt: number;
  readonly daemonId: string | null;
}

/**
 * Everything the sweeper must act on at `now` (the queue's clock, the same one its decisions use):
 * live attempts on silent runtimes, missed start deadlines and leases, and queued work that expired
 * or whose runtime has been gone too long.
 */
export async function findOverdueWork(
  dataSource: DataSource,
  options: { readonly now: Date; readonly offlineAfterMs: number; readonly expireOfflineQueuedAfterMs: number; readonly limit: number },
): Promise<OverdueTask[]> {
  const rows = await dataSource.query<Array<{ kind: OverdueKind; task_id: string; attempt: number; daemon_id: string | null }>>(
    `select 'runtime_offline' as kind, t.task_id, t.attempt, t.daemon_id
       from agent_task_queue t join runtime_presence p on p.runtime_id = t.runtime_id
      where t.status in ('dispatched', 'waiting_local_directory', 'running') and p.last_heartbeat_at < $1::timestamptz - make_interval(secs => $2 / 1000.0)
     union all
     select 'start_deadline', task_id, attempt, daemon_id from agent_task_queue where status in ('dispatched', 'waiting_local_directory') and start_by < $1
     union all
     select 'lease', task_id, attempt, daemon_id from agent_task_queue where status = 'running' and lease_expires_at < $1
     union all
     select 'expired', task_id, attempt, daemon_id from agent_task_queue where status in ('queued', 'deferred') and expires_at < $1
     union all
     select 'runtime_long_offline', t.task_id, t.attempt, t.daemon_id
       from agent_task_queue t join runtime_presence p on p.runtime_id = t.runtime_id
      where t.status in ('queued', 'deferred') and p.last_heartbeat_at < $1::timestamptz - make_interval(secs => $3 / 1000.0)
     limit $4`,
    [options.now.toISOString(), options.offlineAfterMs, options.expireOfflineQueuedAfterMs, options.limit],
  );
  return rows.map((row) => ({ kind: row.kind, taskId: row.task_id, attempt: row.attempt, daemonId: row.daemon_id }));
}

/** Marks runtimes silent past the window as offline (once), for the gateway's runtime list. */
export async function markSilentRuntimesOffline(dataSource: DataSource, options: { readonly now: Date; readonly offlineAfterMs: number }): Promise<void> {
  await dataSource.query(
    `update runtime_presence set offline_since = $1
      where offline_since is null and last_heartbeat_at < $1::timestamptz - make_interval(secs => $2 / 1000.0)`,
    [options.now.toISOString(), options.offlineAfterMs],
  );
}
