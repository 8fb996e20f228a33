import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG } from '../../gateway.injection-keys';
import { hashApiToken } from '../../workspace/tokens/api-token.codec';

export const DEFAULT_WORKSPACE_ID = 'default';

/** Makes `GATEWAY_BOOTSTRAP_TOKEN` a working token of workspace `default` (idempotent, race-safe). */
@Injectable()
export class BootstrapTokenSeeder implements OnApplicationBootstrap {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const token = this.config.GATEWAY_BOOTSTRAP_TOKEN;
    if (!token) return;
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`insert into workspace (id, name) values ($1, 'Default') on conflict (id) do nothing`, [DEFAULT_WORKSPACE_ID]);
      await manager.query(
        `insert into api_token (id, workspace_id, name, token_hash) values ('bootstrap', $1, 'bootstrap token', $2)
         on conflict (id) do update set
           token_hash = excluded.token_hash,
           -- Revoking the bootstrap token sticks; configuring a new value issues it afresh.
           revoked_at = case when api_token.token_hash = excluded.token_hash then api_token.revoked_at else null end`,
        [DEFAULT_WORKSPACE_ID, hashApiToken(token)],
      );
    });
  }
}
