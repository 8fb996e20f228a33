import { describeServiceBoot } from '@switchyard/testing';
import { queueApp } from './queue.app';

describeServiceBoot(queueApp, { database: true });
