import { describeServiceBoot } from '@switchyard/testing';
import { queueService } from './queue.service';

describeServiceBoot(queueService, { database: true });
