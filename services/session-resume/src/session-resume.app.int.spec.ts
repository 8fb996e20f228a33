import { describeServiceBoot } from '@switchyard/testing';
import { sessionResumeApp } from './session-resume.app';

describeServiceBoot(sessionResumeApp, { database: true });
