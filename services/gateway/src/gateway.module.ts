import { Global, Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { keyringOfSetting } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';
import { AuthModule } from './edge/auth/auth.module';
import { ApiExceptionFilter } from './edge/http/api-exception.filter';
import { BodyMediaTypeGuard } from './edge/http/body-media-type.guard';
import { LiveModule } from './edge/live/live.module';
import { AutopilotWebhookModule, DaemonEnrollModule, REST_MODULES } from './edge/rest/rest.modules';
import type { GatewayConfig } from './gateway.config';
import { GATEWAY_CONFIG, GATEWAY_LOGGER, GATEWAY_SECRET_KEYRING } from './gateway.injection-keys';
import { WorkspaceModule } from './workspace/workspace.module';
import { AuditModule } from './workspace/audit/audit.module';

/** The gateway's configuration, logger and secret keyring, visible to all its modules. */
@Global()
@Module({})
class GatewayContextModule {
  static forRoot(config: GatewayConfig, logger: JsonLogger): DynamicModule {
    return {
      module: GatewayContextModule,
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: GATEWAY_LOGGER, useValue: logger },
        {
          provide: GATEWAY_SECRET_KEYRING,
          useValue: keyringOfSetting(config.GATEWAY_SECRET_KEYS, (message) => logger.warn({ event: 'secret_keys_generated', setting: 'GATEWAY_SECRET_KEYS' }, message)),
        },
      ],
      exports: [GATEWAY_CONFIG, GATEWAY_LOGGER, GATEWAY_SECRET_KEYRING],
    };
  }
}

/**
 * The workspace domain behind its edge (REST + WebSocket for clients); the platform (NATS, health,
 * database) comes from serviceRootModule.
 * One exception filter answers every HTTP error as `{ error: { code, message, details? } }`; one
 * guard refuses a body of a type the route does not read (415) before any other guard runs.
 */
@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig, logger: JsonLogger): DynamicModule {
    return {
      module: GatewayModule,
      imports: [GatewayContextModule.forRoot(config, logger), AuditModule, WorkspaceModule, AuthModule, LiveModule, AutopilotWebhookModule, DaemonEnrollModule, ...REST_MODULES],
      providers: [
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        { provide: APP_GUARD, useClass: BodyMediaTypeGuard },
      ],
    };
  }
}
