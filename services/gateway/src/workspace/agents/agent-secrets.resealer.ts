import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { JsonLogger } from '@switchyard/service-kit';
import { GATEWAY_LOGGER } from '../../gateway.injection-keys';
import { AgentsRepository } from './agents.repository';

/**
 * At boot, seals again the agents' secrets still in clear or under an older key: after a key
 * rotation (new key first in `GATEWAY_SECRET_KEYS`) one restart of one gateway moves every agent
 * to the new key, and the old key can then be removed.
 */
@Injectable()
export class AgentSecretsResealer implements OnApplicationBootstrap {
  constructor(
    private readonly agents: AgentsRepository,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { resealed, unreadable } = await this.agents.resealSecrets();
    if (resealed > 0) this.logger.info({ event: 'agent_secrets_resealed', agents: resealed }, 'agent secrets sealed again under the current key');
    if (unreadable.length > 0) {
      this.logger.warn(
        { event: 'agent_secrets_unreadable', agentIds: unreadable },
        'agents whose secrets are sealed under a key GATEWAY_SECRET_KEYS lacks: they cannot be read or run until the key is restored (or the agent is archived and created again)',
      );
    }
  }
}
