import { describeServiceBoot } from '@switchyard/testing';
import { daemonService } from './daemon.service';

describeServiceBoot(daemonService, { database: false });
