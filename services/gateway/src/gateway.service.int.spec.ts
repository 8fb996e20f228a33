import { describeServiceBoot } from '@switchyard/testing';
import { gatewayService } from './gateway.service';

describeServiceBoot(gatewayService, { database: true });
