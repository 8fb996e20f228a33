import { databaseServiceConfigSchema, defineService } from '@switchyard/service-kit';
import { TranscriptModule } from './transcript.module';

export const transcriptService = defineService({
  service: 'transcript',
  configSchema: databaseServiceConfigSchema(8082),
  feature: () => TranscriptModule,
});
