import { describeServiceBoot } from '@switchyard/testing';
import { gatewayApp } from './gateway.app';

describeServiceBoot(gatewayApp, { database: true });
