import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import type { JsonLogger } from '@switchyard/service-kit';
import { GATEWAY_LOGGER } from '../../gateway.injection-keys';
import { completedTaskOf, taskCompletedConsumer } from '../tasks/task-completed.consumer';
import { ChatReplyWriter } from './chat-reply.writer';

export const CHAT_REPLY_CONSUMER = 'gateway-chat-reply';

/** `gateway-chat-reply`: a completed chat task's output becomes the agent's chat message. */
@Controller()
export class ChatReplyConsumer {
  constructor(
    private readonly writer: ChatReplyWriter,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
  ) {}

  @EventPattern(CHAT_REPLY_CONSUMER, taskCompletedConsumer(CHAT_REPLY_CONSUMER))
  async onCompleted(@Payload() message: unknown): Promise<void> {
    const payload = completedTaskOf(message);
    const outcome = await this.writer.onCompleted(payload);
    if (outcome !== 'not_a_chat_task') this.logger.info({ event: 'chat_reply', taskId: payload.taskId, outcome }, 'chat task completion handled');
  }
}
