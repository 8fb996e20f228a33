import type { Permissions } from '@nats-io/jwt';
import { COMMAND_CATALOG, KEY_VALUE_CATALOG, SESSION_COMMAND_CATALOG, isReservedDaemonId, isWorkspaceBucketToken, subjects, workspaceSkillsObjectStore } from '@switchyard/contracts';
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
  /** `workspaceId`: the workspace it enrolled in, whose runtime profiles and skills it may read (none without). */
  | { readonly kind: 'daemon'; readonly daemonId: string; readonly workspaceId?: string }
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

/**
 * Object stores hold one bucket per workspace (`skills-<workspaceId>`). A bucket's objects travel on
 * `$O.<bucket>.C.<nuid>` (chunks) and `$O.<bucket>.M.<name>` (metadata), its stream is
 * `OBJ_<bucket>`. The gateway writes every bucket: `$O.*.>`, since a subject wildcard matches whole
 * tokens only and the workspace is inside the bucket's token.
 */
const OBJECT_STORE_WRITERS: readonly ServiceIdentityName[] = ['gateway'];

/** The workspace a daemon's JWT names, checked: it becomes part of subject tokens. */
function daemonWorkspaceOf(identity: BusIdentity): string | undefined {
  if (identity.kind !== 'daemon' || identity.workspaceId === undefined) return undefined;
  // Anything but a plain token could widen a grant.
  if (!isWorkspaceBucketToken(identity.workspaceId)) throw new InvalidDefinitionError(`workspace id "${identity.workspaceId}" is not a plain subject token`);
  return identity.workspaceId;
}

/** A daemon reads only its own workspace's skills bucket; one whose JWT names no workspace, none. */
function objectStoreGrants(identity: BusIdentity, bucketName: (logical: string) => string): string[] {
  if (identity.kind === 'service') return OBJECT_STORE_WRITERS.includes(identity.name) ? ['$O.*.>'] : [];
  const workspaceId = daemonWorkspaceOf(identity);
  return workspaceId === undefined ? [] : objectStoreReads(bucketName(workspaceSkillsObjectStore(workspaceId).name));
}

/**
 * Reading one object and nothing more: its metadata by subject, then an ordered consumer filtered
 * to that object's chunks (flow control answered). No publish to `$O.` (no put), no purge or
 * stream change (no delete), no consumer on the metadata subjects (no watching).
 */
function objectStoreReads(bucket: string): string[] {
  const stream = `OBJ_${bucket}`;
  return [
    `$JS.API.STREAM.MSG.GET.${stream}`,
    `$JS.API.CONSUMER.CREATE.${stream}.*.$O.${bucket}.C.*`,
    `$JS.API.CONSUMER.DELETE.${stream}.*`,
    `$JS.FC.${stream}.>`,
  ];
}

/** Key-value buckets by who may write them; a daemon reads only its workspace's key of `runtime-profiles`. */
const KEY_VALUE_WRITERS: Partial<Record<ServiceIdentityName, readonly string[]>> = {
  gateway: [KEY_VALUE_CATALOG.RUNTIME_PROFILES.name],
};

function keyValueWrites(bucket: string): string[] {
  return [`$KV.${bucket}.>`];
}

/**
 * Watching one key and nothing more: a push consumer filtered to that key (the filter is part of
 * the create subject, so no other key can be asked for), its flow control, and deleting it.
 * No publish to `$KV.` (no put or delete), no direct get, no stream info.
 */
function keyValueKeyReads(bucket: string, key: string): string[] {
  const stream = `KV_${bucket}`;
  return [`$JS.API.CONSUMER.CREATE.${stream}.*.$KV.${bucket}.${key}`, `$JS.API.CONSUMER.DELETE.${stream}.*`, `$JS.FC.${stream}.>`];
}

function keyValueGrants(identity: BusIdentity, bucketName: (logical: string) => string): string[] {
  if (identity.kind === 'service') return (KEY_VALUE_WRITERS[identity.name] ?? []).flatMap((bucket) => keyValueWrites(bucketName(bucket)));
  const workspaceId = daemonWorkspaceOf(identity);
  return workspaceId === undefined ? [] : keyValueKeyReads(bucketName(KEY_VALUE_CATALOG.RUNTIME_PROFILES.name), workspaceId);
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
      allow: [
        ...grant.publish.map((subject) => namespace.subject(subject)),
        ...objectStoreGrants(identity, (bucket) => namespace.stream(bucket)),
        ...keyValueGrants(identity, (bucket) => namespace.stream(bucket)),
        ...(isService ? JETSTREAM_CLIENT : []),
      ],
      ...(isService ? { deny: JETSTREAM_DESTRUCTIVE } : {}),
    },
    sub: { allow: [inbox, ...grant.subscribe.map((subject) => namespace.subject(subject))] },
    ...(grant.responds ? { resp: { max: 1, ttl: 0 } } : {}),
  };
}
