import { describeServiceBoot } from '@switchyard/testing';
import { transcriptService } from './transcript.service';

describeServiceBoot(transcriptService, { database: true });
