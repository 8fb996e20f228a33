import type { EventOf, RuntimeEventType } from '@switchyard/contracts';
import type { RawQueryRunner } from '../database/returning-rows';

export type RuntimeEvent = EventOf<RuntimeEventType>;

/**
 * Applies one runtime event to `runtime_view`. Every write is guarded by the event's occurred-at,
 * so a redelivered or reordered event never moves a runtime back in time: applying the same
 * stream twice, or out of order, leaves the same rows.
 *
 * A heartbeat or offline notice for a runtime the view does not know is ignored: it carries no
 * workspace, and the daemon registers every runtime (again) when it starts or the runtime changes.
 */
export async function projectRuntimeEvent(runner: RawQueryRunner, event: RuntimeEvent): Promise<void> {
  switch (event.type) {
    case 'runtime.registered': {
      const payload = event.payload;
      await runner.query(
        `insert into runtime_view (runtime_id, workspace_id, daemon_id, identity, provider, version, protocol_family, command_name,
                                   profile_id, capacity, models, status, registered_at, last_heartbeat_at, offline_since, offline_reason)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, 'online', $12, null, null, null)
         on conflict (runtime_id) do update set
           workspace_id = excluded.workspace_id, daemon_id = excluded.daemon_id, identity = excluded.identity,
           provider = excluded.provider, version = excluded.version, protocol_family = excluded.protocol_family,
           command_name = excluded.command_name, profile_id = excluded.profile_id, capacity = excluded.capacity, models = excluded.models,
           status = 'online', registered_at = excluded.registered_at, offline_since = null, offline_reason = null
         where excluded.registered_at >= runtime_view.registered_at
           and (runtime_view.offline_since is null or excluded.registered_at >= runtime_view.offline_since)`,
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
          event.occurredAt,
        ],
      );
      return;
    }
    case 'runtime.heartbeat':
      // A heartbeat newer than an offline notice brings the runtime back.
      await runner.query(
        `update runtime_view set
           last_heartbeat_at = $3::timestamptz,
           status = case when offline_since is null or $3::timestamptz > offline_since then 'online' else status end,
           offline_reason = case when offline_since is null or $3::timestamptz > offline_since then null else offline_reason end,
           offline_since = case when offline_since is null or $3::timestamptz > offline_since then null else offline_since end
         where runtime_id = $1 and daemon_id = $2 and $3::timestamptz >= registered_at
           and (last_heartbeat_at is null or $3::timestamptz > last_heartbeat_at)`,
        [event.payload.runtimeId, event.payload.daemonId, event.occurredAt],
      );
      return;
    case 'runtime.offline':
      await runner.query(
        `update runtime_view set status = 'offline', offline_since = $3::timestamptz, offline_reason = $4
         where runtime_id = $1 and daemon_id = $2 and $3::timestamptz >= registered_at
           and (last_heartbeat_at is null or $3::timestamptz >= last_heartbeat_at)
           and (offline_since is null or $3::timestamptz > offline_since)`,
        [event.payload.runtimeId, event.payload.daemonId, event.occurredAt, event.payload.reason],
      );
      return;
    default: {
      const unhandled: never = event;
      throw new Error(`runtime event ${(unhandled as { type: string }).type} has no projection`);
    }
  }
}
