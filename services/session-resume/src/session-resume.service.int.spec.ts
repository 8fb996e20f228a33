import { describeServiceBoot } from '@switchyard/testing';
import { sessionResumeService } from './session-resume.service';

describeServiceBoot(sessionResumeService, { database: true });
