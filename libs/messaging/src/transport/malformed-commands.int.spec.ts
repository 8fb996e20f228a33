import { Controller, Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { commandSuccess, type CommandReply, type TaskCancelCommand, type TaskStateResult } from '@switchyard/contracts';
import { connectTestMessaging, testMessagingOptions, uniqueNamespace } from '@switchyard/testing';
import type { MessagingConnection } from '../connection/messaging.connection';
import { MessagingModule } from '../nest/messaging.module';
import { requestReply } from '../request-reply/request-reply';
import { collectNotices, flushConnection } from '../testing-support/collect-notices';
import { publishRawMessage } from '../testing-support/raw-messages';
import { connectMessagingTransport } from './connect-messaging-transport';
import { commandResponder } from './handler.declarations';

const namespace = uniqueNamespace();
// A service-sent command: its subject names no sender.
const CANCEL_SUBJECT = 'cmd.task.cancel';
const handled: string[] = [];

@Controller()
class CancelHandlers {
  @MessagePattern('task.cancel', commandResponder({ queueGroup: 'malformed-commands-test' }))
  async cancel(@Payload() command: TaskCancelCommand): Promise<CommandReply<TaskStateResult>> {
    handled.push(command.payload.taskId);
    return Promise.resolve(commandSuccess({ taskId: command.payload.taskId, state: 'cancelled' }));
  }
}

@Module({
  imports: [MessagingModule.forRootAsync({ useFactory: async () => ({ ...(await testMessagingOptions({ name: 'malformed-commands-int', namespace })), streams: [] }) })],
  controllers: [CancelHandlers],
})
class CancelAppModule {}

describe('a @MessagePattern command that is not JSON, empty, or with unreadable headers (real NATS)', () => {
  let app: INestApplication;
  let sender: MessagingConnection;

  beforeAll(async () => {
    app = await NestFactory.create(CancelAppModule, { logger: false, abortOnError: false });
    connectMessagingTransport(app);
    await app.init();
    await app.startAllMicroservices();
    sender = await connectTestMessaging({ name: 'malformed-commands-sender', namespace });
  });
  afterAll(async () => {
    await app?.close();
    await sender?.close();
  });

  it('is answered invalid_request without reaching the handler, and the next command is served', async () => {
    const replies = await collectNotices(sender, 'probe.replies');
    await flushConnection(sender);
    publishRawMessage(sender, { subject: CANCEL_SUBJECT, text: 'not json {', replyTo: 'probe.replies' });
    publishRawMessage(sender, { subject: CANCEL_SUBJECT, text: '', replyTo: 'probe.replies' });
    publishRawMessage(sender, { subject: CANCEL_SUBJECT, text: '{}', replyTo: 'probe.replies', unreadableHeader: true });
    const refused = (await replies.waitFor(3)).map((reply) => JSON.parse(reply.text) as CommandReply<unknown>);
    replies.close();

    expect(refused.map((reply) => (reply.ok ? 'ok' : `${reply.error.code} retryable=${String(reply.error.retryable)}`))).toEqual([
      'invalid_request retryable=false',
      'invalid_request retryable=false',
      'invalid_request retryable=false',
    ]);
    expect(handled).toEqual([]);

    const command = { requestId: 'cancel-1', command: 'task.cancel', schemaVersion: 1, correlationId: 'cancel-1', payload: { taskId: 'task-1', requestedBy: { kind: 'user', id: 'u1' }, reason: null } };
    await expect(requestReply(sender, { subject: CANCEL_SUBJECT, data: command, requestId: 'cancel-1' })).resolves.toEqual({ ok: true, result: { taskId: 'task-1', state: 'cancelled' } });
    expect(handled).toEqual(['task-1']);
  });
});
