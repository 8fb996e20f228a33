import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, Payload } from '@nestjs/microservices';
import { uniqueNamespace, connectTestMessaging, testMessagingOptions } from '@switchyard/testing';
import { checkNatsReady, type MessagingConnection } from '../connection/messaging.connection';
import { deadLetterStreamDefinition, type ConsumerDefinition, type StreamDefinition } from '../provisioning/stream.definitions';
import { provisionStreams } from '../provisioning/stream.provisioner';
import { deleteNamespaceStreams } from '../testing-support/namespace-cleanup';
import { waitFor } from '../testing-support/wait-for';
import { connectMessagingTransport } from '../transport/connect-messaging-transport';
import { eventConsumer } from '../transport/handler.declarations';
import { MessagingClient } from './messaging.client';
import { MessagingModule } from './messaging.module';
import { MESSAGING_CONNECTION } from './messaging.injection-keys';

const namespace = uniqueNamespace();
const streams: StreamDefinition[] = [{ name: 'TASKS', subjects: ['task.>'], storage: 'memory' }, deadLetterStreamDefinition({ storage: 'memory' })];
const projector: ConsumerDefinition = { stream: 'TASKS', name: 'projector', ackWaitMs: 2_000, maxDeliver: 3 };

@Controller()
class TaskProjector {
  readonly received: unknown[] = [];

  @EventPattern(projector.name, eventConsumer({ consumer: projector }))
  async project(@Payload() body: unknown): Promise<void> {
    this.received.push(body);
    return Promise.resolve();
  }
}

@Module({
  imports: [
    MessagingModule.forRootAsync({
      useFactory: async () => ({ ...(await testMessagingOptions({ name: 'nest-int', namespace })), streams, consumers: [projector] }),
    }),
  ],
  controllers: [TaskProjector],
})
class ProjectorAppModule {}

describe('MessagingModule', () => {
  afterAll(async () => {
    const cleanup = await connectTestMessaging({ name: 'nest-int-cleanup', namespace });
    await deleteNamespaceStreams(cleanup);
    await cleanup.close();
  });

  it('provisions at boot, runs the handlers through the transport, and drains on shutdown', async () => {
    const app = await NestFactory.create(ProjectorAppModule, { logger: false });
    connectMessagingTransport(app);
    await app.init();
    await app.startAllMicroservices();
    const client = app.get(MessagingClient);
    const connection = app.get<MessagingConnection>(MESSAGING_CONNECTION);

    expect(client.namespace.value).toBe(namespace);
    expect(await client.provisionStreams(streams)).toEqual([
      { name: 'TASKS', action: 'unchanged' },
      { name: 'DEAD_LETTERS', action: 'unchanged' },
    ]);
    await client.publish({ subject: 'task.enqueued.n1', data: { taskId: 'n1' }, messageId: 'n1:1' });
    await waitFor(() => app.get(TaskProjector).received.length === 1, { description: 'projected message' });
    await expect(client.checkReady()).resolves.toBeUndefined();

    await app.close();

    await expect(checkNatsReady(connection)).rejects.toThrow('NATS connection is closed');
    expect(app.get(TaskProjector).received).toEqual([{ taskId: 'n1' }]);
  });

  it('fails to boot with a readable error when a definition is invalid', async () => {
    @Module({
      imports: [
        MessagingModule.forRootAsync({
          useFactory: async () => ({ ...(await testMessagingOptions({ name: 'nest-int-invalid', namespace })), consumers: [{ ...projector, maxDeliver: 0 }] }),
        }),
      ],
    })
    class InvalidAppModule {}

    await expect(NestFactory.createApplicationContext(InvalidAppModule, { logger: false, abortOnError: false })).rejects.toThrow(
      /maxDeliver must be a positive integer/,
    );
  });

  it('keeps stream provisioning idempotent across boots', async () => {
    const connection = await connectTestMessaging({ name: 'nest-int-check', namespace });
    try {
      expect((await provisionStreams(connection, streams)).map((result) => result.action)).toEqual(['unchanged', 'unchanged']);
    } finally {
      await connection.close();
    }
  });
});
