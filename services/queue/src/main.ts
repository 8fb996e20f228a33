import { bootstrapService } from '@switchyard/service-kit';
import { queueService } from './queue.service';

void bootstrapService(queueService);
