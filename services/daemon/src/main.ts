import { bootstrapService } from '@switchyard/service-kit';
import { daemonService } from './daemon.service';

void bootstrapService(daemonService);
