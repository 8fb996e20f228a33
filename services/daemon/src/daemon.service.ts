import { natsServiceConfigSchema, defineService } from '@switchyard/service-kit';
import { DaemonModule } from './daemon.module';

export const daemonService = defineService({
  service: 'daemon',
  configSchema: natsServiceConfigSchema(8084),
  feature: () => DaemonModule,
});
