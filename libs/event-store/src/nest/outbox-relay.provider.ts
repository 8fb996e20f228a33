import type { FactoryProvider } from '@nestjs/common';
import { MESSAGING_CONNECTION, type MessagingConnection } from '@switchyard/messaging';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { DataSource } from 'typeorm';
import { OutboxRelay, createOutboxRelay, type OutboxRelayOptions } from '../relay/outbox.relay';

export type OutboxRelayProviderOptions = Omit<OutboxRelayOptions, 'dataSource' | 'connection'>;

/**
 * Provides `OutboxRelay` from the platform's `DATA_SOURCE` and `MESSAGING_CONNECTION`. Nest starts
 * it at application bootstrap and stops it in `beforeApplicationShutdown`, i.e. before the NATS
 * connection drains and the data source is destroyed. Inject `OutboxRelay` to call `wake()`.
 */
export function outboxRelayProvider(options: OutboxRelayProviderOptions = {}): FactoryProvider<OutboxRelay> {
  return {
    provide: OutboxRelay,
    useFactory: (dataSource: DataSource, connection: MessagingConnection) => createOutboxRelay({ ...options, dataSource, connection }),
    inject: [DATA_SOURCE, MESSAGING_CONNECTION],
  };
}
