import { databaseServiceConfigSchema, defineService } from '@switchyard/service-kit';
import { GatewayModule } from './gateway.module';

export const gatewayService = defineService({
  service: 'gateway',
  configSchema: databaseServiceConfigSchema(8080),
  feature: () => GatewayModule,
});
