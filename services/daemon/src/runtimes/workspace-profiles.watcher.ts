import { KEY_VALUE_CATALOG, workspaceRuntimeProfilesSchema, type RuntimeProfile } from '@switchyard/contracts';
import { watchKeyValue, type KeyValueChange, type KeyValueWatch, type MessagingConnection } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';

/**
 * Follows the runtime profiles the gateway keeps for this daemon's workspace (its key in the
 * `runtime-profiles` bucket, the only key its bus user may watch) and calls `onChange` after each
 * value it takes. A value that does not parse is refused with the reason and the last good list
 * kept; a bus that refuses the watch (credentials from before workspace grants) leaves the list
 * empty: the local profiles file still applies.
 */
export class WorkspaceProfilesWatcher {
  private profiles: readonly RuntimeProfile[] = [];
  private watch: KeyValueWatch | undefined;

  constructor(
    private readonly options: {
      readonly connection: MessagingConnection;
      readonly workspaceId: string;
      readonly logger: JsonLogger;
      readonly onChange: () => void;
    },
  ) {}

  current(): readonly RuntimeProfile[] {
    return this.profiles;
  }

  async start(): Promise<void> {
    const { connection, workspaceId, logger } = this.options;
    try {
      this.watch = await watchKeyValue(connection, { bucket: KEY_VALUE_CATALOG.RUNTIME_PROFILES.name, key: workspaceId, onChange: (change) => this.apply(change) });
    } catch (error) {
      logger.warn({ event: 'workspace_profiles_unwatched', workspaceId, err: error }, 'runtime profiles of the workspace cannot be watched; only the local profiles file applies');
    }
  }

  stop(): void {
    this.watch?.stop();
  }

  private apply(change: KeyValueChange): void {
    const { workspaceId, logger } = this.options;
    if (change.kind === 'deleted') {
      this.profiles = [];
    } else {
      const parsed = workspaceRuntimeProfilesSchema.safeParse(change.value);
      if (!parsed.success || parsed.data.workspaceId !== workspaceId) {
        const problem = parsed.success ? `it names workspace ${parsed.data.workspaceId}` : parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
        logger.error({ event: 'workspace_profiles_refused', workspaceId, revision: change.revision, problem }, 'runtime profiles from the gateway refused; keeping the last ones');
        return;
      }
      this.profiles = parsed.data.profiles;
    }
    logger.info({ event: 'workspace_profiles_changed', workspaceId, revision: change.revision, profiles: this.profiles.map((profile) => profile.profileId) }, 'runtime profiles of the workspace changed');
    this.options.onChange();
  }
}
