import { bootstrapService } from '@switchyard/service-kit';
import { transcriptApp } from './transcript.app';

void bootstrapService(transcriptApp);
