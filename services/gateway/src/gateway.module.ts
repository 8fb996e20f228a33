import { Global, Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import type { JsonLogger } from '@switchyard/service-kit';
import { AuthModule } from './auth/auth.module';
import { AutopilotWebhookModule } from './autopilots/autopilots.module';
import { ChatRepliesModule } from './chat-replies/chat-replies.module';
import { ChildIssuesModule } from './child-issues/child-issues.module';
import type { GatewayConfig } from './gateway.config';
import { GATEWAY_CONFIG, GATEWAY_LOGGER } from './gateway.tokens';
import { ApiExceptionFilter } from './http/api-exception.filter';
import { BodyMediaTypeGuard } from './http/body-media-type.guard';
import { LiveModule } from './live/live.module';
import { REST_MODULES } from './rest.modules';

/** The gateway's configuration and logger, visible to all its modules. */
@Global()
@Module({})
class GatewayContextModule {
  static forRoot(config: GatewayConfig, logger: JsonLogger): DynamicModule {
    return {
      module: GatewayContextModule,
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: GATEWAY_LOGGER, useValue: logger },
      ],
      exports: [GATEWAY_CONFIG, GATEWAY_LOGGER],
    };
  }
}

/**
 * REST + WebSocket for clients; the platform (NATS, health, database) comes from serviceRootModule.
 * One exception filter answers every HTTP error as `{ error: { code, message, details? } }`; one
 * guard refuses a body of a type the route does not read (415) before any other guard runs.
 */
@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig, logger: JsonLogger): DynamicModule {
    return {
      module: GatewayModule,
      imports: [GatewayContextModule.forRoot(config, logger), AuthModule, LiveModule, ChildIssuesModule, ChatRepliesModule, AutopilotWebhookModule, ...REST_MODULES],
      providers: [
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        { provide: APP_GUARD, useClass: BodyMediaTypeGuard },
      ],
    };
  }
}
