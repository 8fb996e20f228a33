import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { ProtocolFamily, RuntimeOfflineReason } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG } from '../../gateway.injection-keys';
import { isoOf, isoOrNull } from '../common/api-schemas';
import type { RuntimeView } from './runtime.schemas';

interface RuntimeRow {
  runtime_id: string;
  daemon_id: string;
  identity: string;
  provider: string | null;
  version: string;
  protocol_family: ProtocolFamily;
  command_name: string;
  profile_id: string | null;
  capacity: number;
  models: string[];
  offline_since: Date | null;
  offline_reason: RuntimeOfflineReason | null;
  registered_at: Date;
  last_heartbeat_at: Date | null;
  last_seen_at: Date;
  is_online: boolean;
}

// Online means: no offline notice since the last sign of life, and that sign is recent. A daemon
// killed with -9 sends no notice, so silence alone makes a runtime offline (`heartbeat_missed`).
const SELECT_RUNTIMES = `
  select runtime_id, daemon_id, identity, provider, version, protocol_family, command_name, profile_id, capacity, models,
         offline_since, offline_reason, registered_at, last_heartbeat_at,
         coalesce(last_heartbeat_at, registered_at) as last_seen_at,
         status = 'online' and coalesce(last_heartbeat_at, registered_at) > now() - make_interval(secs => $2::double precision / 1000) as is_online
    from runtime_view`;

function viewOf(row: RuntimeRow): RuntimeView {
  return {
    runtimeId: row.runtime_id,
    daemonId: row.daemon_id,
    identity: row.identity,
    provider: row.provider,
    version: row.version,
    protocolFamily: row.protocol_family,
    commandName: row.command_name,
    profileId: row.profile_id,
    capacity: row.capacity,
    models: row.models,
    status: row.is_online ? 'online' : 'offline',
    offlineReason: row.is_online ? null : (row.offline_reason ?? 'heartbeat_missed'),
    offlineSince: row.is_online ? null : isoOrNull(row.offline_since ?? row.last_seen_at),
    registeredAt: isoOf(row.registered_at),
    lastHeartbeatAt: isoOrNull(row.last_heartbeat_at),
    lastSeenAt: isoOf(row.last_seen_at),
  };
}

/** Reads of the runtimes view, always within one workspace. */
@Injectable()
export class RuntimeViewRepository {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async list(workspaceId: string): Promise<RuntimeView[]> {
    const rows = await this.dataSource.query<RuntimeRow[]>(`${SELECT_RUNTIMES} where workspace_id = $1 order by identity, runtime_id`, [
      workspaceId,
      this.config.GATEWAY_RUNTIME_OFFLINE_AFTER_MS,
    ]);
    return rows.map(viewOf);
  }

  async find(workspaceId: string, runtimeId: string): Promise<RuntimeView | undefined> {
    const [row] = await this.dataSource.query<RuntimeRow[]>(`${SELECT_RUNTIMES} where workspace_id = $1 and runtime_id = $3`, [
      workspaceId,
      this.config.GATEWAY_RUNTIME_OFFLINE_AFTER_MS,
      runtimeId,
    ]);
    return row ? viewOf(row) : undefined;
  }
}
