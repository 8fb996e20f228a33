import type { Permissions } from '@nats-io/jwt';
import { COMMAND_CATALOG, SESSION_COMMAND_CATALOG, isReservedDaemonId, subjects } from '@switchyard/contracts';
import { InvalidDefinitionError } from '../errors/messaging.errors';
import { createNamespace } from '../namespace/messaging.namespace';

/** The services of a deployment; each connects with a user of its own. */
export const SERVICE_IDENTITIES = ['gateway', 'queue', 'session-resume', 'transcript'] as const;
export type ServiceIdentityName = (typeof SERVICE_IDENTITIES)[number];

/**
 * Who a NATS user is. `tooling` is for operators' tools, tests and the bench: it may use every
 * subject, so it is never given to a running service or daemon.
 */
export type BusIdentity =
  | { readonly kind: 'service'; readonly name: ServiceIdentityName }
  | { readonly kind: 'daemon'; readonly daemonId: string }
  | { readonly kind: 'tooling'; readonly name: string };

/** The NATS user name of an identity (a daemon's user is named by its id). */
export function identityUserName(identity: BusIdentity): string {
  switch (identity.kind) {
    case 'service':
      return identity.name;
    case 'daemon':
      return identity.daemonId;
    case 'tooling':
      return `tooling-${identity.name}`;
  }
}

/**
 * Replies to an identity's requests arrive under `_INBOX.<user>.`: a daemon may subscribe to its
 * own inbox only, so no identity reads another's replies (claim replies carry task secrets).
 */
export function inboxPrefixOf(identity: BusIdentity): string {
  return `_INBOX.${identityUserName(identity)}`;
}

// Commands a daemon sends travel on `cmd.<name>.<daemonId>` (the catalog says which).
const DAEMON_SENT_COMMANDS = Object.values({ ...COMMAND_CATALOG, ...SESSION_COMMAND_CATALOG })
  .filter((entry) => entry.sentBy === 'daemon')
  .map((entry) => entry.command);
// Events a daemon publishes: `<type>.<aggregateId>.<daemonId>`.
const DAEMON_PUBLISHED_EVENTS = ['task.message', 'runtime.registered', 'runtime.heartbeat', 'runtime.offline', 'session.pinned', 'session.retired'] as const;

// JetStream's API: services provision, consume and replay, but never delete or purge a stream;
// a daemon only publishes (the ack comes back to its inbox) and needs none of it.
const JETSTREAM_CLIENT = ['$JS.API.>', '$JS.ACK.>', '$JS.FC.>'];
const JETSTREAM_DESTRUCTIVE = ['$JS.API.STREAM.DELETE.>', '$JS.API.STREAM.PURGE.>', '$JS.API.STREAM.MSG.DELETE.>'];

interface SubjectGrant {
  readonly publish: readonly string[];
  readonly subscribe: readonly string[];
  /** Answers requests: may publish once to each request's reply subject. */
  readonly responds?: boolean;
}

// Logical subjects (the namespace is applied below), one row per identity.
const SERVICE_GRANTS: Record<ServiceIdentityName, SubjectGrant> = {
  gateway: {
    publish: ['cmd.task.*', 'notify.workspace.*', 'dlq.>'],
    subscribe: ['task.>', 'runtime.>', 'notify.workspace.*'],
  },
  queue: {
    publish: ['task.>', 'runtime.>', 'notify.>', 'dlq.>'],
    subscribe: ['cmd.task.>'],
    responds: true,
  },
  'session-resume': {
    publish: ['session.>', 'dlq.>'],
    subscribe: ['cmd.session.>'],
    responds: true,
  },
  transcript: {
    publish: ['dlq.>'],
    subscribe: [],
  },
};

function daemonGrant(daemonId: string): SubjectGrant {
  return {
    publish: [...DAEMON_SENT_COMMANDS.map((command) => `cmd.${command}.${daemonId}`), ...DAEMON_PUBLISHED_EVENTS.map((type) => `${type}.*.${daemonId}`)],
    subscribe: [subjects.daemonNotices(daemonId)],
  };
}

const userNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

/** The NATS permissions of an identity's user JWT, with the deployment's namespace applied. */
export function permissionsOf(identity: BusIdentity, namespaceValue?: string): Permissions {
  const user = identityUserName(identity);
  if (!userNamePattern.test(user)) throw new InvalidDefinitionError(`identity "${user}" must be 1-64 characters of A-Z a-z 0-9 _ -`);
  // A daemon named like a service would share its inbox and publisher token.
  if (identity.kind === 'daemon' && isReservedDaemonId(identity.daemonId)) throw new InvalidDefinitionError(`daemon id "${identity.daemonId}" is reserved`);
  if (identity.kind === 'tooling') return { pub: { allow: ['>'] }, sub: { allow: ['>'] } };
  const namespace = createNamespace(namespaceValue);
  const grant = identity.kind === 'service' ? SERVICE_GRANTS[identity.name] : daemonGrant(identity.daemonId);
  const inbox = `${inboxPrefixOf(identity)}.>`;
  const isService = identity.kind === 'service';
  return {
    pub: {
      allow: [...grant.publish.map((subject) => namespace.subject(subject)), ...(isService ? JETSTREAM_CLIENT : [])],
      ...(isService ? { deny: JETSTREAM_DESTRUCTIVE } : {}),
    },
    sub: { allow: [inbox, ...grant.subscribe.map((subject) => namespace.subject(subject))] },
    ...(grant.responds ? { resp: { max: 1, ttl: 0 } } : {}),
  };
}
