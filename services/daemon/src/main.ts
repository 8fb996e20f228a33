import { bootstrapService } from '@switchyard/service-kit';
import { daemonApp } from './daemon.app';

void bootstrapService(daemonApp);
