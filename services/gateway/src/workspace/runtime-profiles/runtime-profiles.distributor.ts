import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { KEY_VALUE_CATALOG, type RuntimeProfile, type WorkspaceRuntimeProfiles } from '@switchyard/contracts';
import { MESSAGING_CONNECTION, putKeyValue, type MessagingConnection } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import { GATEWAY_LOGGER } from '../../gateway.injection-keys';
import { ApiError } from '../common/api-error';
import type { RuntimeProfileView } from './runtime-profile.schemas';
import { RuntimeProfilesRepository } from './runtime-profiles.repository';

/** A profile as daemons read it: its gateway id is its profile id (`profile-<id>` runtimes). */
function runtimeProfileOf(view: RuntimeProfileView): RuntimeProfile {
  return { profileId: view.id, displayName: view.displayName, protocolFamily: view.protocolFamily, commandName: view.commandName, fixedArgs: view.fixedArgs };
}

/**
 * Puts a workspace's enabled runtime profiles, the whole list, under its key in the
 * `runtime-profiles` bucket after every change; its daemons watch that key and apply it without a
 * restart. At boot every workspace with profiles is put again, so a change NATS missed while the
 * gateway was down reaches the daemons once it is back.
 */
@Injectable()
export class RuntimeProfilesDistributor implements OnApplicationBootstrap {
  constructor(
    private readonly profiles: RuntimeProfilesRepository,
    @Inject(MESSAGING_CONNECTION) private readonly connection: MessagingConnection,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const workspaceId of await this.profiles.workspacesWithProfiles()) {
      try {
        await this.put(workspaceId);
      } catch (error) {
        this.logger.error({ event: 'runtime_profiles_not_distributed', workspaceId, err: error }, 'runtime profiles could not be put at boot; the next change puts them again');
      }
    }
  }

  /** After a change: a put NATS refused answers 503 (the change is saved; repeating it puts the list again). */
  async distribute(workspaceId: string): Promise<void> {
    try {
      await this.put(workspaceId);
    } catch (error) {
      this.logger.error({ event: 'runtime_profiles_not_distributed', workspaceId, err: error }, 'runtime profiles could not be put for the daemons');
      throw new ApiError('runtime_profiles_not_distributed', `the change is saved but NATS did not take the runtime profiles (${(error as Error).message}); repeat the request`);
    }
  }

  private async put(workspaceId: string): Promise<void> {
    const enabled = (await this.profiles.list(workspaceId)).filter((profile) => profile.enabled);
    const value: WorkspaceRuntimeProfiles = { schemaVersion: 1, workspaceId, profiles: enabled.map(runtimeProfileOf) };
    const revision = await putKeyValue(this.connection, { bucket: KEY_VALUE_CATALOG.RUNTIME_PROFILES.name, key: workspaceId, value });
    this.logger.info({ event: 'runtime_profiles_distributed', workspaceId, profiles: enabled.length, revision }, 'runtime profiles put for the daemons');
  }
}
