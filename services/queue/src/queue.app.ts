import { databasePlatform } from '@switchyard/persistence';
import { defineService } from '@switchyard/service-kit';
import { queueConfigSchema } from './queue.config';
import { QueueModule } from './queue.module';

export const queueApp = defineService({
  service: 'queue',
  configSchema: queueConfigSchema,
  platform: (config) => [databasePlatform({ url: config.DATABASE_URL, applicationName: 'queue' })],
  feature: (config, logger) => QueueModule.forRoot(config, logger),
});
