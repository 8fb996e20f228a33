import { COMMAND_CATALOG, EVENT_TYPES, SERVICE_PUBLISHERS, SESSION_COMMAND_CATALOG, STREAM_CATALOG, commandSenderOf, subjects, type AnyCommandName, type EventType, type StreamName } from '@switchyard/contracts';
import { SERVICE_IDENTITIES, createNamespace, permissionsOf, type BusIdentity } from '@switchyard/messaging';

/**
 * The durable consumers the services declare (transcript, gateway, session-resume, queue): a
 * poison message stored on a subject one of them reads must come out as a dead letter of it.
 * Written out here because tools may not import services; a renamed consumer fails the suite's
 * check that every one of them exists.
 */
export const DURABLE_CONSUMERS: ReadonlyArray<{ readonly stream: StreamName; readonly name: string; readonly filter: string }> = [
  { stream: 'TASK_EVENTS', name: 'transcript-timeline', filter: subjects.eventTypeFilter('task.message') },
  { stream: 'TASK_EVENTS', name: 'gateway-chat-reply', filter: subjects.eventTypeFilter('task.completed') },
  { stream: 'TASK_EVENTS', name: 'gateway-child-done', filter: subjects.eventTypeFilter('task.completed') },
  ...(['task.enqueued', 'task.started', 'task.completed', 'task.failed', 'task.cancelled'] as const).map((type) => ({
    stream: 'TASK_EVENTS' as const,
    name: `session-resume-${type.replace('.', '_')}`,
    filter: subjects.eventTypeFilter(type),
  })),
  ...(['session.pinned', 'session.retired'] as const).map((type) => ({
    stream: 'SESSION_EVENTS' as const,
    name: `session-resume-${type.replace('.', '_')}`,
    filter: subjects.eventTypeFilter(type),
  })),
  { stream: 'RUNTIME_EVENTS', name: 'gateway-runtime-view', filter: subjects.aggregateKindFilter('runtime') },
  { stream: 'RUNTIME_EVENTS', name: 'queue-runtime-presence', filter: subjects.eventTypeFilter('runtime.heartbeat') },
];

/** The lifecycle events the gateway's live workspace feed hears on core NATS (`workspace-feed.hub.ts`). */
export const GATEWAY_FEED_EVENT_TYPES: readonly EventType[] = [
  'task.enqueued',
  'task.deferred',
  'task.claimed',
  'task.started',
  'task.requeued',
  'task.completed',
  'task.failed',
  'task.expired',
  'task.cancel_requested',
  'task.cancelled',
  'task.timed_out',
];

/** Whether a NATS subject filter (`*` one token, `>` the rest) matches a subject. */
export function subjectMatches(filter: string, subject: string): boolean {
  const filterTokens = filter.split('.');
  const tokens = subject.split('.');
  for (const [index, token] of filterTokens.entries()) {
    if (token === '>') return tokens.length > index;
    if (index >= tokens.length || (token !== '*' && token !== tokens[index])) return false;
  }
  return filterTokens.length === tokens.length;
}

/** Whether the identity's grant lets it publish on the (logical) subject in this namespace. */
export function mayPublish(identity: BusIdentity, subject: string, namespace: string): boolean {
  const serverSubject = createNamespace(namespace).subject(subject);
  const { pub } = permissionsOf(identity, namespace);
  const allowed = (pub?.allow ?? []).some((filter) => subjectMatches(filter, serverSubject));
  return allowed && !(pub?.deny ?? []).some((filter) => subjectMatches(filter, serverSubject));
}

/** A process that hears a subject on core NATS (a responder or a live subscription). */
export type CoreListener = 'queue' | 'session-resume' | 'gateway' | 'daemon';

/** One subject some service listens on, and the least privileged identity allowed to publish there. */
export interface PoisonTarget {
  readonly subject: string;
  readonly publisher: BusIdentity;
  /** Commands are requests: published with a reply subject too, they must be answered `invalid_request`. */
  readonly isCommand: boolean;
  /** Who hears it on core NATS, if anyone. */
  readonly coreListener: CoreListener | undefined;
  /** The stream that stores it, when it is a stream subject. */
  readonly stream: StreamName | undefined;
  /** The durable consumers that read it: each must dead-letter the poison. */
  readonly consumers: readonly string[];
}

/**
 * Every subject a service or the daemon subscribes to, from the catalogs: each command's subject,
 * each event type's subject (and the shorter `<type>.<x>` the gateway's live feed also hears), the
 * gateway's workspace notices and the daemon's notices. The publisher is the attacker daemon where
 * its grant allows it, else the least privileged service that may publish there, else test tooling.
 */
export function poisonTargets(options: { readonly namespace: string; readonly attackerDaemonId: string; readonly victimDaemonId: string; readonly tooling: BusIdentity }): PoisonTarget[] {
  const { attackerDaemonId, victimDaemonId } = options;
  const commands = [...Object.keys(COMMAND_CATALOG), ...Object.keys(SESSION_COMMAND_CATALOG)] as AnyCommandName[];
  const commandSubjects = commands.map((name) => {
    const build = subjects.command as (command: AnyCommandName, sender?: string) => string;
    const subject = commandSenderOf(name) === 'service' ? build(name) : build(name, attackerDaemonId);
    return { subject, isCommand: true, coreListener: Object.hasOwn(SESSION_COMMAND_CATALOG, name) ? ('session-resume' as const) : ('queue' as const) };
  });
  const eventSubjects = EVENT_TYPES.flatMap((type) => {
    const asDaemon = subjects.forEvent({ type, aggregateId: 'poison-aggregate' }, attackerDaemonId);
    const publisher = mayPublish({ kind: 'daemon', daemonId: attackerDaemonId }, asDaemon, options.namespace) ? attackerDaemonId : SERVICE_PUBLISHERS.queue;
    const coreListener = GATEWAY_FEED_EVENT_TYPES.includes(type) ? ('gateway' as const) : undefined;
    return [subjects.forEvent({ type, aggregateId: 'poison-aggregate' }, publisher), `${type}.poison`].map((subject) => ({ subject, isCommand: false, coreListener }));
  });
  const noticeSubjects = [
    { subject: 'notify.workspace.default', isCommand: false, coreListener: 'gateway' as const },
    ...[subjects.workAvailable(victimDaemonId, 'poison-runtime'), subjects.cancelNotice(victimDaemonId, 'poison-task'), `notify.${victimDaemonId}.unknown_kind.poison`].map((subject) => ({
      subject,
      isCommand: false,
      coreListener: 'daemon' as const,
    })),
  ];
  return [...commandSubjects, ...eventSubjects, ...noticeSubjects].map((target) => {
    const stream = (Object.keys(STREAM_CATALOG) as StreamName[]).find((name) => STREAM_CATALOG[name].subjects.some((filter) => subjectMatches(filter, target.subject)));
    return {
      ...target,
      publisher: leastPrivilegedPublisher({ subject: target.subject, namespace: options.namespace, attackerDaemonId, tooling: options.tooling }),
      stream,
      consumers: DURABLE_CONSUMERS.filter((consumer) => consumer.stream === stream && subjectMatches(consumer.filter, target.subject)).map((consumer) => consumer.name),
    };
  });
}

function leastPrivilegedPublisher(options: { readonly subject: string; readonly namespace: string; readonly attackerDaemonId: string; readonly tooling: BusIdentity }): BusIdentity {
  const candidates: BusIdentity[] = [
    { kind: 'daemon', daemonId: options.attackerDaemonId },
    ...(['transcript', 'session-resume', 'gateway', 'queue'] as const).filter((name) => SERVICE_IDENTITIES.includes(name)).map((name) => ({ kind: 'service' as const, name })),
  ];
  return candidates.find((identity) => mayPublish(identity, options.subject, options.namespace)) ?? options.tooling;
}
