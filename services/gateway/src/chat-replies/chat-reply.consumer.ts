import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { MessagingClient } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import { GATEWAY_LOGGER } from '../gateway.tokens';
import { startTaskCompletedConsumer } from '../tasks/task-completed.consumer';
import { ChatReplyWriter } from './chat-reply.writer';

export const CHAT_REPLY_CONSUMER = 'gateway-chat-reply';

/** `gateway-chat-reply`: a completed chat task's output becomes the agent's chat message. */
@Injectable()
export class ChatReplyConsumer implements OnModuleInit {
  constructor(
    private readonly writer: ChatReplyWriter,
    private readonly client: MessagingClient,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
  ) {}

  onModuleInit(): Promise<void> {
    return startTaskCompletedConsumer(this.client, {
      name: CHAT_REPLY_CONSUMER,
      onCompleted: async (payload) => {
        const outcome = await this.writer.onCompleted(payload);
        if (outcome !== 'not_a_chat_task') this.logger.info({ event: 'chat_reply', taskId: payload.taskId, outcome }, 'chat task completion handled');
      },
    });
  }
}
