import { defineService } from '@switchyard/service-kit';
import { daemonConfigSchema } from './daemon.config';
import { DaemonModule } from './daemon.module';

export const daemonApp = defineService({
  service: 'daemon',
  configSchema: daemonConfigSchema,
  feature: (config, logger) => DaemonModule.forRoot(config, logger),
  // Its NATS user is named by its id: it may publish and read only subjects that name itself.
  busIdentity: (config) => ({ kind: 'daemon', daemonId: config.DAEMON_ID }),
});
