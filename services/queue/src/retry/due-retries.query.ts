import type { DataSource } from 'typeorm';

/**
 * Runtimes with deferred tasks (backed-off retries, scheduled work) that fell due in
 * `(after, upTo]`: the sweeper nudges their daemons, which otherwise wait for their slow poll.
 */
export async function runtimesWithWorkFallenDue(dataSource: DataSource, window: { readonly after: Date; readonly upTo: Date }): Promise<string[]> {
  const rows = await dataSource.query<Array<{ runtime_id: string }>>(
    `select distinct runtime_id from agent_task_queue
      where status = 'deferred' and fire_at > $1 and fire_at <= $2`,
    [window.after.toISOString(), window.upTo.toISOString()],
  );
  return rows.map((row) => row.runtime_id);
}
