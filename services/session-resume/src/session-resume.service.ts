import { databaseServiceConfigSchema, defineService } from '@switchyard/service-kit';
import { SessionResumeModule } from './session-resume.module';

export const sessionResumeService = defineService({
  service: 'session-resume',
  configSchema: databaseServiceConfigSchema(8083),
  feature: () => SessionResumeModule,
});
