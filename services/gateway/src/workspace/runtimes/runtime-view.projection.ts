import type { EventOf, RuntimeEventType } from '@switchyard/contracts';
import { returningRows, type RawQueryRunner } from '../database/returning-rows';

export type RuntimeEvent = EventOf<RuntimeEventType>;

/** Who a runtime belongs to once the view knows it: neither ever changes. */
export interface RuntimeOwner {
  readonly workspaceId: string;
  readonly daemonId: string;
}

/**
 * `applied`: the row changed. `stale`: nothing to write (older than the row, a repeat, or a notice
 * for a runtime never registered). `foreign`: the runtime belongs to another workspace or daemon.
 */
export type RuntimeProjectionOutcome = { readonly kind: 'applied' } | { readonly kind: 'stale' } | { readonly kind: 'foreign'; readonly owner: RuntimeOwner };

/**
 * Applies one runtime event to `runtime_view`, stamped with `storedAt`, the time the JetStream
 * server stored it: a publisher chooses its payload's `occurredAt`, not that. Every write is
 * guarded by it, so a redelivered or reordered event never moves a runtime back in time: applying
 * the same stream twice, or out of order, leaves the same rows.
 *
 * A runtime's workspace and daemon are those of its first registration: a later event for the same
 * runtime id from another daemon, or a registration naming another workspace, writes nothing.
 *
 * A heartbeat or offline notice for a runtime the view does not know is ignored: it carries no
 * workspace, and the daemon registers every runtime (again) when it starts or the runtime changes.
 */
export async function projectRuntimeEvent(runner: RawQueryRunner, options: { readonly event: RuntimeEvent; readonly storedAt: Date }): Promise<RuntimeProjectionOutcome> {
  const { event, storedAt } = options;
  const written = await writeRuntimeEvent(runner, { event, storedAt });
  if (written.length > 0) return { kind: 'applied' };
  const [owner] = await runner.query<Array<{ workspace_id: string; daemon_id: string }>>('select workspace_id, daemon_id from runtime_view where runtime_id = $1', [
    event.payload.runtimeId,
  ]);
  if (!owner) return { kind: 'stale' };
  const otherWorkspace = event.type === 'runtime.registered' && owner.workspace_id !== event.payload.workspaceId;
  if (otherWorkspace || owner.daemon_id !== event.payload.daemonId) return { kind: 'foreign', owner: { workspaceId: owner.workspace_id, daemonId: owner.daemon_id } };
  return { kind: 'stale' };
}

function writeRuntimeEvent(runner: RawQueryRunner, options: { readonly event: RuntimeEvent; readonly storedAt: Date }): Promise<Array<{ runtime_id: string }>> {
  const { event, storedAt } = options;
  switch (event.type) {
    case 'runtime.registered': {
      const payload = event.payload;
      return returningRows(
        runner,
        `insert into runtime_view (runtime_id, workspace_id, daemon_id, identity, provider, version, protocol_family, command_name,
                                   profile_id, capacity, models, status, registered_at, last_heartbeat_at, offline_since, offline_reason)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, 'online', $12, null, null, null)
         on conflict (runtime_id) do update set
           identity = excluded.identity, provider = excluded.provider, version = excluded.version, protocol_family = excluded.protocol_family,
           command_name = excluded.command_name, profile_id = excluded.profile_id, capacity = excluded.capacity, models = excluded.models,
           status = 'online', registered_at = excluded.registered_at, offline_since = null, offline_reason = null
         where runtime_view.workspace_id = excluded.workspace_id and runtime_view.daemon_id = excluded.daemon_id
           and excluded.registered_at >= runtime_view.registered_at
           and (runtime_view.offline_since is null or excluded.registered_at >= runtime_view.offline_since)
         returning runtime_id`,
        [
          payload.runtimeId,
          payload.workspaceId,
          payload.daemonId,
          payload.identity,
          payload.provider,
          payload.version,
          payload.protocolFamily,
          payload.commandName,
          payload.profileId,
          payload.capacity,
          JSON.stringify(payload.models),
          storedAt,
        ],
      );
    }
    case 'runtime.heartbeat':
      // A heartbeat newer than an offline notice brings the runtime back.
      return returningRows(
        runner,
        `update runtime_view set
           last_heartbeat_at = $3::timestamptz,
           status = case when offline_since is null or $3::timestamptz > offline_since then 'online' else status end,
           offline_reason = case when offline_since is null or $3::timestamptz > offline_since then null else offline_reason end,
           offline_since = case when offline_since is null or $3::timestamptz > offline_since then null else offline_since end
         where runtime_id = $1 and daemon_id = $2 and $3::timestamptz >= registered_at
           and (last_heartbeat_at is null or $3::timestamptz > last_heartbeat_at)
         returning runtime_id`,
        [event.payload.runtimeId, event.payload.daemonId, storedAt],
      );
    case 'runtime.offline':
      return returningRows(
        runner,
        `update runtime_view set status = 'offline', offline_since = $3::timestamptz, offline_reason = $4
         where runtime_id = $1 and daemon_id = $2 and $3::timestamptz >= registered_at
           and (last_heartbeat_at is null or $3::timestamptz >= last_heartbeat_at)
           and (offline_since is null or $3::timestamptz > offline_since)
         returning runtime_id`,
        [event.payload.runtimeId, event.payload.daemonId, storedAt, event.payload.reason],
      );
    default: {
      const unhandled: never = event;
      throw new Error(`runtime event ${(unhandled as { type: string }).type} has no projection`);
    }
  }
}
