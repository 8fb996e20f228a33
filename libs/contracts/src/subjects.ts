import { commandSenderOf, type AnyCommandName, type DaemonCommandName } from './command-catalog';
import type { EventType, RuntimeEventType, SessionEventType, TaskEventType } from './event-catalog';
import type { AggregateKind } from './event-envelope.schema';
import { assertSubjectSegment } from './subject-segment';

// Every subject a daemon publishes or subscribes names the daemon as a whole token, so a daemon's
// NATS identity can be allowed its own subjects only (permissions see subjects, never payloads,
// and wildcards match whole tokens). Consumers read the sender from the subject, not the payload.
//
//   events    <type>.<aggregateId>.<publisher>       task.message.<taskId>.<daemonId>
//   commands  cmd.<name>.<daemonId> (daemon-sent)    cmd.task.claim.<daemonId>
//             cmd.<name>           (service-sent)    cmd.task.enqueue
//   notices   notify.<daemonId>.<kind>.<id>          notify.<daemonId>.work_available.<runtimeId>

export const COMMAND_SUBJECT_PREFIX = 'cmd';
export const DEAD_LETTER_SUBJECT_PREFIX = 'dlq';
/** Live-only nudges on core NATS (never stored): e.g. "a runtime of yours has work". */
export const NOTIFY_SUBJECT_PREFIX = 'notify';

/** The publisher token of the events each service publishes; a daemon's is its id. */
export const SERVICE_PUBLISHERS = {
  queue: 'queue',
  gateway: 'gateway',
  sessionResume: 'session-resume',
  transcript: 'transcript',
} as const;
export type ServicePublisher = (typeof SERVICE_PUBLISHERS)[keyof typeof SERVICE_PUBLISHERS];

/**
 * Ids no daemon may take: as a publisher token it would pass for a service, and `workspace` would
 * put its notices (`notify.workspace.>`) over the gateway's workspace notices.
 */
export const RESERVED_DAEMON_IDS: readonly string[] = [...Object.values(SERVICE_PUBLISHERS), 'workspace'];

export function isReservedDaemonId(daemonId: string): boolean {
  return RESERVED_DAEMON_IDS.includes(daemonId);
}

/** What the queue tells one daemon on `notify.<daemonId>.<kind>.<id>`. */
export const DAEMON_NOTICE_KINDS = {
  /** A runtime of the daemon has work: claim now. The id is the runtime's. */
  workAvailable: 'work_available',
  /** A cancel of an attempt the daemon holds committed: stop the run. The id is the task's. */
  cancel: 'cancel',
} as const;

export type DaemonNotice =
  | { readonly kind: typeof DAEMON_NOTICE_KINDS.workAvailable; readonly daemonId: string; readonly runtimeId: string }
  | { readonly kind: typeof DAEMON_NOTICE_KINDS.cancel; readonly daemonId: string; readonly taskId: string };

/** A daemon-sent command needs its sender; a service-sent one takes none. */
export type CommandSubjectSender<TName extends AnyCommandName> = TName extends DaemonCommandName ? [sender: string] : [];

function eventSubject(options: { type: EventType; aggregateId: string; label: string; publisher: string }): string {
  return `${options.type}.${assertSubjectSegment(options.aggregateId, options.label)}.${assertSubjectSegment(options.publisher, 'publisher')}`;
}

function daemonNoticeSubject(daemonId: string, kind: string, id: string): string {
  return `${NOTIFY_SUBJECT_PREFIX}.${assertSubjectSegment(daemonId, 'daemonId')}.${kind}.${assertSubjectSegment(id, 'id')}`;
}

function commandSubject(name: AnyCommandName, sender: string | undefined): string {
  const sentBy = commandSenderOf(name);
  if (sentBy === 'daemon' && sender === undefined) throw new Error(`${name} is sent by a daemon: its subject needs the sender`);
  if (sentBy === 'service' && sender !== undefined) throw new Error(`${name} is sent by a service: its subject names no sender`);
  return sender === undefined ? `${COMMAND_SUBJECT_PREFIX}.${name}` : `${COMMAND_SUBJECT_PREFIX}.${name}.${assertSubjectSegment(sender, 'sender')}`;
}

export const subjects = {
  /** `task.message.<taskId>.<publisher>` (two-word types such as `task.cancel_requested` stay one token). */
  taskEvent: (event: { type: TaskEventType; taskId: string; publisher: string }): string =>
    eventSubject({ type: event.type, aggregateId: event.taskId, label: 'taskId', publisher: event.publisher }),
  /** `runtime.heartbeat.<runtimeId>.<publisher>` */
  runtimeEvent: (event: { type: RuntimeEventType; runtimeId: string; publisher: string }): string =>
    eventSubject({ type: event.type, aggregateId: event.runtimeId, label: 'runtimeId', publisher: event.publisher }),
  /** `session.pinned.<sessionId>.<publisher>` */
  sessionEvent: (event: { type: SessionEventType; sessionId: string; publisher: string }): string =>
    eventSubject({ type: event.type, aggregateId: event.sessionId, label: 'sessionId', publisher: event.publisher }),
  /** The subject `publisher` publishes an envelope on. */
  forEvent: (event: { type: EventType; aggregateId: string }, publisher: string): string =>
    eventSubject({ type: event.type, aggregateId: event.aggregateId, label: 'aggregateId', publisher }),
  runtimeHeartbeat: (runtimeId: string, publisher: string): string =>
    eventSubject({ type: 'runtime.heartbeat', aggregateId: runtimeId, label: 'runtimeId', publisher }),
  /**
   * The last token: who published an event, or sent a daemon-sent command. What NATS permissions
   * let an identity publish on is what it is; a payload's own claim is not.
   */
  publisherOf: (subject: string): string => assertSubjectSegment(subject.slice(subject.lastIndexOf('.') + 1), 'publisher'),
  /** The aggregate id of an event subject `<type>.<aggregateId>.<publisher>`: the token before the last. */
  aggregateIdOf: (subject: string): string => {
    const tokens = subject.split('.');
    return assertSubjectSegment(tokens[tokens.length - 2] ?? '', 'aggregateId');
  },

  /** Every event of one type: `task.message.>`. */
  eventTypeFilter: (type: EventType): string => `${type}.>`,
  /** Every event of one kind of aggregate: `task.*.>`. */
  aggregateKindFilter: (kind: AggregateKind): string => `${kind}.*.>`,
  /** Every event of one aggregate, from any publisher: `task.*.<taskId>.*` (two-word types included). */
  aggregateFilter: (kind: AggregateKind, aggregateId: string): string =>
    `${kind}.*.${assertSubjectSegment(aggregateId, 'aggregateId')}.*`,
  /** One type of event of one aggregate, from any publisher: `task.message.<taskId>.*`. */
  aggregateEventFilter: (type: EventType, aggregateId: string): string => `${type}.${assertSubjectSegment(aggregateId, 'aggregateId')}.*`,

  /** `notify.<daemonId>.work_available.<runtimeId>`: the daemon claims on it instead of polling. */
  workAvailable: (daemonId: string, runtimeId: string): string => daemonNoticeSubject(daemonId, DAEMON_NOTICE_KINDS.workAvailable, runtimeId),
  /** `notify.<daemonId>.cancel.<taskId>`: the daemon stops its run of the task. */
  cancelNotice: (daemonId: string, taskId: string): string => daemonNoticeSubject(daemonId, DAEMON_NOTICE_KINDS.cancel, taskId),
  /** Every notice to one daemon: `notify.<daemonId>.>`, its one subscription. */
  daemonNotices: (daemonId: string): string => `${NOTIFY_SUBJECT_PREFIX}.${assertSubjectSegment(daemonId, 'daemonId')}.>`,
  /** The notice a subject carries, or undefined when it is no daemon notice of a known kind. */
  parseDaemonNotice: (subject: string): DaemonNotice | undefined => {
    const [prefix, daemonId, kind, id, ...rest] = subject.split('.');
    if (prefix !== NOTIFY_SUBJECT_PREFIX || !daemonId || !id || rest.length > 0) return undefined;
    if (kind === DAEMON_NOTICE_KINDS.workAvailable) return { kind, daemonId, runtimeId: id };
    if (kind === DAEMON_NOTICE_KINDS.cancel) return { kind, daemonId, taskId: id };
    return undefined;
  },

  /** `cmd.task.claim.<daemonId>` for a daemon-sent command, `cmd.task.enqueue` for a service-sent one. */
  command: <TName extends AnyCommandName>(name: TName, ...sender: CommandSubjectSender<TName>): string => commandSubject(name, sender[0]),
  /** What a responder subscribes: `cmd.task.claim.*` (any sender), `cmd.task.enqueue`. */
  commandFilter: (name: AnyCommandName): string =>
    commandSenderOf(name) === 'daemon' ? `${COMMAND_SUBJECT_PREFIX}.${name}.*` : `${COMMAND_SUBJECT_PREFIX}.${name}`,
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
  /**
   * `<publisher>:<taskId>:<seq>[:<proof>]`: stable even if the daemon re-creates the envelope after
   * a crash. JetStream dedupes by this id alone, whatever the subject, so a daemon adds a proof only
   * the attempt's holder can compute (a MAC keyed by its lease token): another daemon that knows
   * the task cannot publish first under the holder's next id and have the real message dropped.
   */
  taskMessage: (message: { publisher: string; taskId: string; seq: number; proof?: string }): string => {
    const { publisher, taskId, seq, proof } = message;
    if (!Number.isInteger(seq) || seq < 0) throw new RangeError(`seq must be a non-negative integer, got ${seq}`);
    const id = `${assertSubjectSegment(publisher, 'publisher')}:${assertSubjectSegment(taskId, 'taskId')}:${seq}`;
    return proof === undefined ? id : `${id}:${assertSubjectSegment(proof, 'proof')}`;
  },
  event: (eventId: string): string => eventId,
  /** The id `publisher` publishes an envelope with. */
  forEvent: (event: { type: EventType; eventId: string; payload: unknown }, publisher: string): string => {
    if (event.type === 'task.message') {
      const { taskId, seq } = event.payload as { taskId: string; seq: number };
      return messageIds.taskMessage({ publisher, taskId, seq });
    }
    return messageIds.event(event.eventId);
  },
} as const;
