import { defineService } from '@switchyard/service-kit';
import { daemonConfigSchema } from './daemon.config';
import { DaemonModule } from './daemon.module';

export const daemonApp = defineService({
  service: 'daemon',
  configSchema: daemonConfigSchema,
  feature: (config, logger) => DaemonModule.forRoot(config, logger),
  // Its NATS user is named by its id: it may publish and read only subjects that name itself,
  // and watch only its own workspace's runtime profiles.
  busIdentity: (config) => ({ kind: 'daemon', daemonId: config.DAEMON_ID, workspaceId: config.DAEMON_WORKSPACE_ID }),
});
