import { databasePlatform } from '@switchyard/persistence';
import { defineService } from '@switchyard/service-kit';
import { transcriptConfigSchema } from './transcript.config';
import { TranscriptModule } from './transcript.module';

export const transcriptApp = defineService({
  service: 'transcript',
  configSchema: transcriptConfigSchema,
  platform: (config) => [databasePlatform({ url: config.DATABASE_URL, applicationName: 'transcript' })],
  feature: (config, logger) => TranscriptModule.forRoot(config, logger),
});
