import { bootstrapService } from '@switchyard/service-kit';
import { transcriptService } from './transcript.service';

void bootstrapService(transcriptService);
