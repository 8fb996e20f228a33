import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { MessagingClient } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import { GATEWAY_LOGGER } from '../gateway.tokens';
import { startTaskCompletedConsumer } from '../tasks/task-completed.consumer';
import { ChildDoneNotifier } from './child-done.notifier';

export const CHILD_DONE_CONSUMER = 'gateway-child-done';

/** `gateway-child-done`: a child issue's completed task notes the parent and asks its agent to review. */
@Injectable()
export class ChildDoneConsumer implements OnModuleInit {
  constructor(
    private readonly notifier: ChildDoneNotifier,
    private readonly client: MessagingClient,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
  ) {}

  onModuleInit(): Promise<void> {
    return startTaskCompletedConsumer(this.client, {
      name: CHILD_DONE_CONSUMER,
      onCompleted: async (payload) => {
        const outcome = await this.notifier.onCompleted(payload);
        if (outcome !== 'not_a_child') this.logger.info({ event: 'child_done', taskId: payload.taskId, outcome }, 'child task completion handled');
      },
    });
  }
}
