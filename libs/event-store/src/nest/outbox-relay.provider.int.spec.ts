import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { HEADERS } from '@switchyard/contracts';
import { MessagingModule, catalogStreamDefinitions } from '@switchyard/messaging';
import { deleteNamespaceStreams, readStream } from '@switchyard/messaging/testing';
import { DATA_SOURCE, PersistenceModule, runMigrations } from '@switchyard/persistence';
import { createTestDatabase, uniqueNamespace, connectTestMessaging, testMessagingOptions } from '@switchyard/testing';
import type { DataSource } from 'typeorm';
import { OutboxRelay } from '../relay/outbox.relay';
import { appendEvents } from '../store/event.store';
import { taskMessageEvents, waitUntil } from '../testing-support/event-store.spec-helper';
import { outboxRelayProvider } from './outbox-relay.provider';

describe('outboxRelayProvider in a NestJS application', () => {
  it('starts the relay at bootstrap, publishes after wake(), and stops it before the connections close', async () => {
    const database = await createTestDatabase();
    const namespace = uniqueNamespace();
    const reader = await connectTestMessaging({ name: 'relay-provider-reader', namespace });
    try {
      await runMigrations({ url: database.url });
      @Module({
        imports: [
          PersistenceModule.forRoot({ url: database.url, applicationName: 'relay-provider-test' }),
          MessagingModule.forRootAsync({ useFactory: async () => ({ ...(await testMessagingOptions({ name: 'relay-provider-test', namespace })), streams: catalogStreamDefinitions() }) }),
        ],
        providers: [outboxRelayProvider({ pollIntervalMs: 60_000 })],
      })
      class RelayApplicationModule {}
      const application = await NestFactory.createApplicationContext(RelayApplicationModule, { logger: false });
      const relay = application.get(OutboxRelay);
      const dataSource = application.get<DataSource>(DATA_SOURCE);
      expect(relay.isRunning).toBe(true);
      await waitUntil(() => relay.isActive, 'the relay holds the lock');

      const taskId = `task-${uniqueNamespace()}`;
      const { events } = await appendEvents({ dataSource, aggregateId: taskId, expectedVersion: 0, events: taskMessageEvents(taskId, 1, 3) });
      relay.wake();
      await waitUntil(async () => (await readStream(reader, 'TASK_EVENTS')).length === 3, 'three events are on the stream');

      await application.close();
      expect(relay.isRunning).toBe(false);
      const stored = await readStream(reader, 'TASK_EVENTS');
      expect(stored.map((message) => message.headers[HEADERS.messageId])).toEqual(events.map((event) => event.eventId));
    } finally {
      await deleteNamespaceStreams(reader);
      await reader.close();
      await database.drop();
    }
  });
});
