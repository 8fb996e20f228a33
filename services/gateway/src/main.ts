import { bootstrapService } from '@switchyard/service-kit';
import { gatewayApp } from './gateway.app';

void bootstrapService(gatewayApp);
