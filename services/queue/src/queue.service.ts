import { databaseServiceConfigSchema, defineService } from '@switchyard/service-kit';
import { QueueModule } from './queue.module';

export const queueService = defineService({
  service: 'queue',
  configSchema: databaseServiceConfigSchema(8081),
  feature: QueueModule,
});
