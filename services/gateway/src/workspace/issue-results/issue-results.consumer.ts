import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { STREAM_CATALOG, parseEvent, subjects, type EventOf } from '@switchyard/contracts';
import { PermanentError, eventConsumer } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import { GATEWAY_LOGGER } from '../../gateway.injection-keys';
import { IssueResultWriter, type IssueResultOutcome } from './issue-result.writer';

/** The task events that write back to an issue. */
export const ISSUE_RESULT_EVENT_TYPES = ['task.started', 'task.completed', 'task.failed', 'task.expired'] as const;
type IssueResultEventType = (typeof ISSUE_RESULT_EVENT_TYPES)[number];

/** One durable consumer per event type: one filter subject each, which every supported nats-server accepts. */
export const issueResultsConsumerName = (type: IssueResultEventType): string => `gateway-issue-results-${type.replace('task.', '')}`;

const SECOND = 1_000;

/**
 * The `extras` of one write-back consumer (TASK_EVENTS). Like the other reactions to a task's end
 * it keeps no checkpoint (the writer is idempotent by task) and starts with new events on first
 * boot; a gateway that was down catches up from the consumer's position.
 */
const issueResultsConsumer = (type: IssueResultEventType): Record<string, unknown> =>
  eventConsumer({
    consumer: {
      stream: STREAM_CATALOG.TASK_EVENTS.name,
      name: issueResultsConsumerName(type),
      filterSubjects: [subjects.eventTypeFilter(type)],
      deliverPolicy: 'new',
      ackWaitMs: 30 * SECOND,
      backoffMs: [2 * SECOND, 10 * SECOND, 30 * SECOND, 60 * SECOND, 300 * SECOND],
      maxDeliver: 20,
    },
    concurrency: 4,
  });

/** The delivered event of `type`; anything else is poison (dead-lettered). */
function eventOf<TType extends IssueResultEventType>(type: TType, message: unknown): EventOf<TType> {
  const parsed = parseEvent(message);
  if (!parsed.ok) throw new PermanentError(`${type} event rejected: ${parsed.error.message}`, parsed.error);
  if (parsed.event.type !== type) throw new PermanentError(`${parsed.event.type} on the ${issueResultsConsumerName(type)} consumer`, undefined);
  return parsed.event as EventOf<TType>;
}

/** `gateway-issue-results-*`: a task of an issue moves its status and writes its result or failure back as a comment. */
@Controller()
export class IssueResultsConsumer {
  constructor(
    private readonly writer: IssueResultWriter,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
  ) {}

  @EventPattern(issueResultsConsumerName('task.started'), issueResultsConsumer('task.started'))
  async onStarted(@Payload() message: unknown): Promise<void> {
    const { payload } = eventOf('task.started', message);
    this.handled('task.started', payload.taskId, await this.writer.onStarted(payload.taskId));
  }

  @EventPattern(issueResultsConsumerName('task.completed'), issueResultsConsumer('task.completed'))
  async onCompleted(@Payload() message: unknown): Promise<void> {
    const { payload } = eventOf('task.completed', message);
    this.handled('task.completed', payload.taskId, await this.writer.onCompleted(payload));
  }

  @EventPattern(issueResultsConsumerName('task.failed'), issueResultsConsumer('task.failed'))
  async onFailed(@Payload() message: unknown): Promise<void> {
    const { payload } = eventOf('task.failed', message);
    this.handled('task.failed', payload.taskId, await this.writer.onFailed(payload));
  }

  /** A queued task nobody claimed in time ends failed (reason `expired`) by this event alone. */
  @EventPattern(issueResultsConsumerName('task.expired'), issueResultsConsumer('task.expired'))
  async onExpired(@Payload() message: unknown): Promise<void> {
    const { payload } = eventOf('task.expired', message);
    this.handled('task.expired', payload.taskId, await this.writer.onFailed({ taskId: payload.taskId, reason: 'expired', message: payload.message }));
  }

  private handled(type: IssueResultEventType, taskId: string, outcome: IssueResultOutcome): void {
    if (outcome !== 'not_an_issue_task') this.logger.info({ event: 'issue_result', type, taskId, outcome }, 'issue task event handled');
  }
}
