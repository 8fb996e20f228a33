import { databasePlatform } from '@switchyard/persistence';
import { defineService } from '@switchyard/service-kit';
import { resumeIndexConsumers } from './index/resume-index.projector';
import { sessionResumeConfigSchema } from './session-resume.config';
import { SessionResumeModule } from './session-resume.module';

export const sessionResumeApp = defineService({
  service: 'session-resume',
  configSchema: sessionResumeConfigSchema,
  platform: (config) => [databasePlatform({ url: config.DATABASE_URL, applicationName: 'session-resume' })],
  feature: (config, logger) => SessionResumeModule.forRoot(config, logger),
  // The index consumers' settings come from configuration.
  eventConsumers: (config) => resumeIndexConsumers(config),
});
