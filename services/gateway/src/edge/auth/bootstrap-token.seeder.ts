import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7 } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG } from '../../gateway.injection-keys';
import { normalizeEmail } from '../../workspace/people/users.repository';
import { hashApiToken } from '../../workspace/tokens/api-token.codec';

export const DEFAULT_WORKSPACE_ID = 'default';

/**
 * Makes `GATEWAY_BOOTSTRAP_TOKEN` a working token of the first owner (`GATEWAY_BOOTSTRAP_OWNER_EMAIL`,
 * an account without a password: the admin command prints it a sign-in link) in workspace
 * `default`: how a fresh install (and the local stack) gets its first credential. Idempotent and
 * race-safe across replicas.
 */
@Injectable()
export class BootstrapTokenSeeder implements OnApplicationBootstrap {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const token = this.config.GATEWAY_BOOTSTRAP_TOKEN;
    if (!token) return;
    const email = normalizeEmail(this.config.GATEWAY_BOOTSTRAP_OWNER_EMAIL);
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`insert into workspace (id, name) values ($1, 'Default') on conflict (id) do nothing`, [DEFAULT_WORKSPACE_ID]);
      await manager.query(`insert into app_user (id, email, display_name) values ($1, $2, 'First owner') on conflict (email) do nothing`, [`user-${uuidv7()}`, email]);
      const [owner] = await manager.query<Array<{ id: string }>>('select id from app_user where email = $1', [email]);
      if (!owner) throw new Error(`the first owner ${email} was not created`);
      // An owner who was given another role since keeps it: the seed never overrides people's decisions.
      await manager.query(`insert into workspace_member (workspace_id, user_id, role) values ($1, $2, 'owner') on conflict do nothing`, [DEFAULT_WORKSPACE_ID, owner.id]);
      await manager.query(
        `insert into api_token (id, workspace_id, user_id, name, token_hash) values ('bootstrap', $1, $2, 'bootstrap token', $3)
         on conflict (id) do update set
           token_hash = excluded.token_hash,
           -- Revoking the bootstrap token sticks; configuring a new value issues it afresh.
           revoked_at = case when api_token.token_hash = excluded.token_hash then api_token.revoked_at else null end`,
        [DEFAULT_WORKSPACE_ID, owner.id, hashApiToken(token)],
      );
    });
  }
}
