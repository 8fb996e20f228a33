import { defineService } from '@switchyard/service-kit';
import { transcriptConfigSchema } from './transcript.config';
import { TranscriptModule } from './transcript.module';

export const transcriptService = defineService({
  service: 'transcript',
  configSchema: transcriptConfigSchema,
  feature: (config, logger) => TranscriptModule.forRoot(config, logger),
});
