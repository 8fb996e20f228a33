import { defineService } from '@switchyard/service-kit';
import { queueConfigSchema } from './queue.config';
import { QueueModule } from './queue.module';

export const queueService = defineService({
  service: 'queue',
  configSchema: queueConfigSchema,
  feature: (config, logger) => QueueModule.forRoot(config, logger),
});
