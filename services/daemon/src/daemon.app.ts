import { defineService } from '@switchyard/service-kit';
import { daemonConfigSchema } from './daemon.config';
import { DaemonModule } from './daemon.module';

export const daemonApp = defineService({
  service: 'daemon',
  configSchema: daemonConfigSchema,
  feature: (config, logger) => DaemonModule.forRoot(config, logger),
});
