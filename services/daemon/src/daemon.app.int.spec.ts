import { describeServiceBoot } from '@switchyard/testing';
import { daemonApp } from './daemon.app';

describeServiceBoot(daemonApp, { database: false, env: { DAEMON_ID: 'daemon-boot-test' } });
