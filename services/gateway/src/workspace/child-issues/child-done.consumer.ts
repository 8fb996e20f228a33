import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import type { JsonLogger } from '@switchyard/service-kit';
import { GATEWAY_LOGGER } from '../../gateway.injection-keys';
import { completedTaskOf, taskCompletedConsumer } from '../tasks/task-completed.consumer';
import { ChildDoneNotifier } from './child-done.notifier';

export const CHILD_DONE_CONSUMER = 'gateway-child-done';

/** `gateway-child-done`: a child issue's completed task notes the parent and asks its agent to review. */
@Controller()
export class ChildDoneConsumer {
  constructor(
    private readonly notifier: ChildDoneNotifier,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
  ) {}

  @EventPattern(CHILD_DONE_CONSUMER, taskCompletedConsumer(CHILD_DONE_CONSUMER))
  async onCompleted(@Payload() message: unknown): Promise<void> {
    const payload = completedTaskOf(message);
    const outcome = await this.notifier.onCompleted(payload);
    if (outcome !== 'not_a_child') this.logger.info({ event: 'child_done', taskId: payload.taskId, outcome }, 'child task completion handled');
  }
}
