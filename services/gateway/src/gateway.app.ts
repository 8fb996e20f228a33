import { databasePlatform } from '@switchyard/persistence';
import { defineService } from '@switchyard/service-kit';
import { gatewayConfigSchema } from './gateway.config';
import { GatewayModule } from './gateway.module';
import { configureGatewayApp } from './edge/configure-gateway-app';

export const gatewayApp = defineService({
  service: 'gateway',
  configSchema: gatewayConfigSchema,
  platform: (config) => [databasePlatform({ url: config.DATABASE_URL, applicationName: 'gateway' })],
  feature: (config, logger) => GatewayModule.forRoot(config, logger),
  configureApp: (app, config) => configureGatewayApp(app, config.GATEWAY_WEB_ROOT),
});
