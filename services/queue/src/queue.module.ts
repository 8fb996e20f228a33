import { Module, type DynamicModule } from '@nestjs/common';
import { outboxRelayProvider } from '@switchyard/event-store';
import type { JsonLogger } from '@switchyard/service-kit';
import { TaskCommandServer } from './commands/task-command.server';
import type { QueueConfig } from './queue.config';
import { QUEUE_CONFIG, QUEUE_LOGGER } from './queue.tokens';
import { RuntimePresenceConsumer } from './sweeper/runtime-presence.consumer';
import { TaskSweeper } from './sweeper/task-sweeper';

/**
 * The queue service: task commands over NATS, runtime presence from heartbeats, the sweeper, and
 * task events relayed from Postgres to JetStream.
 */
@Module({})
export class QueueModule {
  static forRoot(config: QueueConfig, logger: JsonLogger): DynamicModule {
    return {
      module: QueueModule,
      providers: [
        { provide: QUEUE_CONFIG, useValue: config },
        { provide: QUEUE_LOGGER, useValue: logger },
        outboxRelayProvider({ pollIntervalMs: config.QUEUE_RELAY_POLL_INTERVAL_MS, logger: logger.child({ component: 'outbox-relay' }) }),
        TaskCommandServer,
        RuntimePresenceConsumer,
        TaskSweeper,
      ],
    };
  }
}
