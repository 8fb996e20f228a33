import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { JsonLogger } from '@switchyard/service-kit';
import { GATEWAY_LOGGER } from '../../gateway.injection-keys';
import { SecretsRepository } from './secrets.repository';

/**
 * At boot, seals again the workspace secrets sealed under an older key, as `AgentSecretsResealer`
 * does for agents: one restart after a rotation and the old key can be removed.
 */
@Injectable()
export class SecretsResealer implements OnApplicationBootstrap {
  constructor(
    private readonly secrets: SecretsRepository,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { resealed, unreadable } = await this.secrets.resealValues();
    if (resealed > 0) this.logger.info({ event: 'workspace_secrets_resealed', secrets: resealed }, 'workspace secrets sealed again under the current key');
    if (unreadable.length > 0) {
      this.logger.warn(
        { event: 'workspace_secrets_unreadable', secretIds: unreadable },
        'workspace secrets sealed under a key GATEWAY_SECRET_KEYS lacks: tasks of repositories using them cannot be enqueued until the key is restored or the value is set again',
      );
    }
  }
}
