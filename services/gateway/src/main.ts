import { bootstrapService } from '@switchyard/service-kit';
import { gatewayService } from './gateway.service';

void bootstrapService(gatewayService);
