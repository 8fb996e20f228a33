import { randomBytes } from 'node:crypto';
import { Module, type DynamicModule } from '@nestjs/common';
import { outboxRelayProvider } from '@switchyard/event-store';
import type { JsonLogger } from '@switchyard/service-kit';
import { WorkAvailableNudger } from './claim/work-available.nudger';
import { CancelNoticePublisher } from './commands/cancel-notice.publisher';
import { TaskCommandServer } from './commands/task-command.server';
import type { QueueConfig } from './queue.config';
import { keyringOfSetting } from '@switchyard/persistence';
import { QUEUE_CONFIG, QUEUE_LOGGER, SECRET_KEYRING, TASK_TOKEN_SECRET } from './queue.injection-keys';
import { RuntimePresenceConsumer } from './sweeper/runtime-presence.consumer';
import { TaskSweeper } from './sweeper/task-sweeper';
import { QueueMetrics } from './metrics/queue.metrics';

function taskTokenSecret(config: QueueConfig, logger: JsonLogger): string {
  if (config.QUEUE_TASK_TOKEN_SECRET) return config.QUEUE_TASK_TOKEN_SECRET;
  logger.warn(
    { event: 'task_token_secret_generated' },
    'QUEUE_TASK_TOKEN_SECRET is not set: task tokens use a random key that dies with this process and differs between replicas',
  );
  return randomBytes(32).toString('hex');
}

/**
 * The queue service: task commands over NATS, runtime presence from heartbeats, the sweeper,
 * task events relayed from Postgres to JetStream, and its metrics.
 */
@Module({})
export class QueueModule {
  static forRoot(config: QueueConfig, logger: JsonLogger): DynamicModule {
    return {
      module: QueueModule,
      providers: [
        { provide: QUEUE_CONFIG, useValue: config },
        { provide: QUEUE_LOGGER, useValue: logger },
        { provide: TASK_TOKEN_SECRET, useValue: taskTokenSecret(config, logger) },
        {
          provide: SECRET_KEYRING,
          useValue: keyringOfSetting(config.QUEUE_SECRET_KEYS, (message) => logger.warn({ event: 'secret_keys_generated', setting: 'QUEUE_SECRET_KEYS' }, message)),
        },
        outboxRelayProvider({ pollIntervalMs: config.QUEUE_RELAY_POLL_INTERVAL_MS, logger: logger.child({ component: 'outbox-relay' }) }),
        WorkAvailableNudger,
        CancelNoticePublisher,
        TaskSweeper,
        QueueMetrics,
      ],
      // Message handlers: the messaging transport runs their @MessagePattern / @EventPattern methods.
      controllers: [TaskCommandServer, RuntimePresenceConsumer],
    };
  }
}
