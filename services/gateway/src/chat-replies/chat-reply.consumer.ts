import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { STREAM_CATALOG, parseEvent, subjects } from '@switchyard/contracts';
import { MessagingClient, PermanentError } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import { GATEWAY_LOGGER } from '../gateway.tokens';
import { ChatReplyWriter } from './chat-reply.writer';

export const CHAT_REPLY_CONSUMER = 'gateway-chat-reply';

const SECOND = 1_000;

/**
 * The durable consumer `gateway-chat-reply` on `task.completed.>` (TASK_EVENTS), beside
 * `gateway-child-done`. No checkpoint: the writer is idempotent by the task. New events only on
 * first boot; after that a gateway that was down catches up from the consumer's position.
 */
@Injectable()
export class ChatReplyConsumer implements OnModuleInit {
  constructor(
    private readonly writer: ChatReplyWriter,
    private readonly client: MessagingClient,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.client.startConsumer<unknown>({
      consumer: {
        stream: STREAM_CATALOG.TASK_EVENTS.name,
        name: CHAT_REPLY_CONSUMER,
        filterSubjects: [subjects.eventTypeFilter('task.completed')],
        deliverPolicy: 'new',
        ackWaitMs: 30 * SECOND,
        backoffMs: [2 * SECOND, 10 * SECOND, 30 * SECOND, 60 * SECOND, 300 * SECOND],
        maxDeliver: 20,
      },
      concurrency: 4,
      handler: (message) => this.apply(message),
    });
  }

  private async apply(message: unknown): Promise<void> {
    const parsed = parseEvent(message);
    if (!parsed.ok) throw new PermanentError(`task.completed event rejected: ${parsed.error.message}`, parsed.error);
    if (parsed.event.type !== 'task.completed') throw new PermanentError(`${parsed.event.type} on the task.completed consumer`, undefined);
    const outcome = await this.writer.onCompleted(parsed.event.payload);
    if (outcome !== 'not_a_chat_task') this.logger.info({ event: 'chat_reply', taskId: parsed.event.payload.taskId, outcome }, 'chat task completion handled');
  }
}
