import { Module, type DynamicModule } from '@nestjs/common';
import { outboxRelayProvider } from '@switchyard/event-store';
import type { JsonLogger } from '@switchyard/service-kit';
import { TaskCommandServer } from './commands/task-command.server';
import type { QueueConfig } from './queue.config';
import { QUEUE_CONFIG } from './queue.tokens';

/** The queue service: task commands over NATS, task events relayed from Postgres to JetStream. */
@Module({})
export class QueueModule {
  static forRoot(config: QueueConfig, logger: JsonLogger): DynamicModule {
    return {
      module: QueueModule,
      providers: [
        { provide: QUEUE_CONFIG, useValue: config },
        outboxRelayProvider({ pollIntervalMs: config.QUEUE_RELAY_POLL_INTERVAL_MS, logger: logger.child({ component: 'outbox-relay' }) }),
        TaskCommandServer,
      ],
    };
  }
}
