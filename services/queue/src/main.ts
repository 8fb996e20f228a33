import { bootstrapService } from '@switchyard/service-kit';
import { queueApp } from './queue.app';

void bootstrapService(queueApp);
