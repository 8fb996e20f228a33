import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { STREAM_CATALOG, parseEvent, subjects } from '@switchyard/contracts';
import { MessagingClient, PermanentError } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import { GATEWAY_LOGGER } from '../gateway.tokens';
import { ChildDoneNotifier } from './child-done.notifier';

export const CHILD_DONE_CONSUMER = 'gateway-child-done';

const SECOND = 1_000;

/**
 * The durable consumer `gateway-child-done` on `task.completed.>` (TASK_EVENTS). It needs no
 * checkpoint: the notifier is idempotent by the child task's key. It starts with new events on
 * first boot, so completions from before the gateway knew about children are not replayed as
 * review tasks; after that, a gateway that was down catches up from the consumer's position.
 */
@Injectable()
export class ChildDoneConsumer implements OnModuleInit {
  constructor(
    private readonly notifier: ChildDoneNotifier,
    private readonly client: MessagingClient,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.client.startConsumer<unknown>({
      consumer: {
        stream: STREAM_CATALOG.TASK_EVENTS.name,
        name: CHILD_DONE_CONSUMER,
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
    const outcome = await this.notifier.onCompleted(parsed.event.payload);
    if (outcome !== 'not_a_child') this.logger.info({ event: 'child_done', taskId: parsed.event.payload.taskId, outcome }, 'child task completion handled');
  }
}
