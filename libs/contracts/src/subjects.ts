import type { CommandName, SessionCommandName } from './command-catalog';
import type { EventType, RuntimeEventType, SessionEventType, TaskEventType } from './event-catalog';
import type { AggregateKind } from './event-envelope.schema';
import { assertSubjectSegment } from './subject-segment';

// Subjects put ids in the trailing token (`task.message.<taskId>`) so consumers filter by
// wildcard and NATS permissions can be scoped per subject family.

export const COMMAND_SUBJECT_PREFIX = 'cmd';
export const DEAD_LETTER_SUBJECT_PREFIX = 'dlq';
/** Live-only nudges on core NATS (never stored): e.g. "a runtime of yours has work". */
export const NOTIFY_SUBJECT_PREFIX = 'notify';

function eventSubject(type: EventType, aggregateId: string, label: string): string {
  return `${type}.${assertSubjectSegment(aggregateId, label)}`;
}

export const subjects = {
  /** `task.message.<taskId>` */
  taskEvent: (type: TaskEventType, taskId: string): string => eventSubject(type, taskId, 'taskId'),
  /** `runtime.heartbeat.<runtimeId>` */
  runtimeEvent: (type: RuntimeEventType, runtimeId: string): string => eventSubject(type, runtimeId, 'runtimeId'),
  /** `session.pinned.<sessionId>` */
  sessionEvent: (type: SessionEventType, sessionId: string): string => eventSubject(type, sessionId, 'sessionId'),
  /** The subject an envelope is published on. */
  forEvent: (event: { type: EventType; aggregateId: string }): string =>
    eventSubject(event.type, event.aggregateId, 'aggregateId'),
  runtimeHeartbeat: (runtimeId: string): string => eventSubject('runtime.heartbeat', runtimeId, 'runtimeId'),

  /** Every event of one type: `task.message.>`. */
  eventTypeFilter: (type: EventType): string => `${type}.>`,
  /** Every event of one kind of aggregate: `task.*.>`. */
  aggregateKindFilter: (kind: AggregateKind): string => `${kind}.*.>`,
  /** Every event of one aggregate: `task.*.<taskId>` (two-word types such as `task.cancel_requested` included). */
  aggregateFilter: (kind: AggregateKind, aggregateId: string): string =>
    `${kind}.*.${assertSubjectSegment(aggregateId, 'aggregateId')}`,

  /** `notify.work_available.<runtimeId>`: daemons claim on it instead of polling. */
  workAvailable: (runtimeId: string): string => `${NOTIFY_SUBJECT_PREFIX}.work_available.${assertSubjectSegment(runtimeId, 'runtimeId')}`,
  /** Every runtime's nudge: `notify.work_available.*`. */
  workAvailableFilter: (): string => `${NOTIFY_SUBJECT_PREFIX}.work_available.*`,

  /** `cmd.task.claim`, `cmd.session.resolve` */
  command: (name: CommandName | SessionCommandName): string => `${COMMAND_SUBJECT_PREFIX}.${name}`,
  /** Every command: `cmd.>`. */
  allCommands: (): string => `${COMMAND_SUBJECT_PREFIX}.>`,

  /** `dlq.<stream>.<consumer>`: where a consumer parks poison messages. */
  deadLetter: (stream: string, consumer: string): string =>
    `${DEAD_LETTER_SUBJECT_PREFIX}.${assertSubjectSegment(stream, 'stream')}.${assertSubjectSegment(consumer, 'consumer')}`,
  /** `dlq.>`, or `dlq.<stream>.>` for one stream's dead letters. */
  deadLetterFilter: (stream?: string): string =>
    stream === undefined
      ? `${DEAD_LETTER_SUBJECT_PREFIX}.>`
      : `${DEAD_LETTER_SUBJECT_PREFIX}.${assertSubjectSegment(stream, 'stream')}.>`,
} as const;

/** Deterministic `Nats-Msg-Id` values: a retried publish of the same logical event dedupes. */
export const messageIds = {
  /** `<taskId>:<seq>`: stable even if the daemon re-creates the envelope after a crash. */
  taskMessage: (taskId: string, seq: number): string => {
    if (!Number.isInteger(seq) || seq < 0) throw new RangeError(`seq must be a non-negative integer, got ${seq}`);
    return `${assertSubjectSegment(taskId, 'taskId')}:${seq}`;
  },
  event: (eventId: string): string => eventId,
  /** The id to publish an envelope with. */
  forEvent: (event: { type: EventType; eventId: string; payload: unknown }): string => {
    if (event.type === 'task.message') {
      const { taskId, seq } = event.payload as { taskId: string; seq: number };
      return messageIds.taskMessage(taskId, seq);
    }
    return messageIds.event(event.eventId);
  },
} as const;
