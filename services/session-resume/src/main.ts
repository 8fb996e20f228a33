import { bootstrapService } from '@switchyard/service-kit';
import { sessionResumeApp } from './session-resume.app';

void bootstrapService(sessionResumeApp);
