import { bootstrapService } from '@switchyard/service-kit';
import { sessionResumeService } from './session-resume.service';

void bootstrapService(sessionResumeService);
