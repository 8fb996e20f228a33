import { readFileSync } from 'node:fs';
import { createDaemonKeys, connectMessaging, inboxPrefixOf, publish, publishNotice, type BusIdentity, type MessagingConnection } from '@switchyard/messaging';
import { flushConnection, watchPermissionViolations, type PermissionViolations } from '@switchyard/messaging/testing';
import { testCredentials } from '@switchyard/testing';
import { until, type GatewayApi } from './attack-system.spec-helper';

/** Someone on the bus with an identity of the system, trying what that identity may not do. */
export interface Attacker {
  readonly label: string;
  readonly identity: BusIdentity;
  readonly connection: MessagingConnection;
  /** Whom its daemon-sent commands name (daemons only): the last token of their subjects. */
  readonly daemonId: string | undefined;
  /** The curve public key a daemon claims with (its own, as enrolled). */
  readonly sealingKey: string | undefined;
  readonly violations: PermissionViolations;
  /** Set once the server closed the connection for good (e.g. revoked), with its reason. */
  closedByServer(): Error | undefined;
}

export interface EnrolledDaemon {
  readonly daemonId: string;
  readonly workspaceId: string;
  readonly creds: string;
  readonly curvePublicKey: string;
  /** The seed of that curve key: what opens the secrets sealed to the daemon. */
  readonly curveSeed: string;
}

/** Enrolls a daemon as `npm run daemon -- enroll` does: a one-time token, keys made here, the id the gateway gives. */
export async function enrollDaemon(api: GatewayApi, name: string): Promise<EnrolledDaemon> {
  const enrollment = await api('POST', '/api/daemon-enrollments', {});
  if (enrollment.status !== 201) throw new Error(`enrollment token refused: ${enrollment.status}`);
  const keys = createDaemonKeys();
  const enrolled = await api(
    'POST',
    '/api/daemons/enroll',
    { token: (enrollment.body as { token: string }).token, name, userPublicKey: keys.userPublicKey, curvePublicKey: keys.curvePublicKey },
    { token: null },
  );
  if (enrolled.status !== 201) throw new Error(`enrollment refused: ${enrolled.status} ${JSON.stringify(enrolled.body)}`);
  const answer = enrolled.body as { daemonId: string; workspaceId: string; jwt: string };
  return { daemonId: answer.daemonId, workspaceId: answer.workspaceId, creds: keys.credsFor(answer.jwt), curvePublicKey: keys.curvePublicKey, curveSeed: keys.curveSeed };
}

/**
 * Connects as an identity. `namespace` undefined: subjects are used as the server sees them (to
 * try `>` or another user's inbox literally). Violations are watched from the first moment.
 */
export async function connectAttacker(options: {
  readonly label: string;
  readonly natsUrl: string;
  readonly namespace: string | undefined;
  readonly identity: BusIdentity;
  readonly creds: string;
  readonly sealingKey?: string;
}): Promise<Attacker> {
  let refusedWith: Error | undefined;
  const connection = await connectMessaging({
    url: options.natsUrl,
    name: `bus-attacker-${options.label.replaceAll(/[^A-Za-z0-9-]/g, '-')}`,
    ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
    credentials: options.creds,
    inboxPrefix: inboxPrefixOf(options.identity),
    requestTimeoutMs: 2_000,
    connectTimeoutMs: 5_000,
    reconnectTimeWaitMs: 100,
    reconnectJitterMs: 0,
    onClosedByServer: (error) => (refusedWith = error),
    ...(options.identity.kind === 'daemon' ? { jetStreamAccess: 'publish' as const } : {}),
  });
  return {
    label: options.label,
    identity: options.identity,
    connection,
    daemonId: options.identity.kind === 'daemon' ? options.identity.daemonId : undefined,
    sealingKey: options.sealingKey,
    violations: watchPermissionViolations(connection),
    closedByServer: () => refusedWith,
  };
}

/** A fresh user of a service's grant (another replica of it, as a compromised host of that service would hold). */
export async function connectAsService(options: { readonly natsUrl: string; readonly namespace: string; readonly name: 'gateway' | 'queue' | 'session-resume' | 'transcript' }): Promise<Attacker> {
  const identity: BusIdentity = { kind: 'service', name: options.name };
  return connectAttacker({ label: options.name, natsUrl: options.natsUrl, namespace: options.namespace, identity, creds: await testCredentials(identity, options.namespace) });
}

/** The victim daemon's own credentials, read from its home: a second process under its id that never claimed anything. */
export function stolenCredentials(file: string): string {
  return readFileSync(file, 'utf8');
}

function refusalsOf(attacker: Attacker, operation: 'Publish' | 'Subscription', serverSubject: string): number {
  return attacker.violations.seen.filter((text) => text.includes(`${operation} to "${serverSubject}"`)).length;
}

/** Resolves once the server has refused one more `operation` on the (server) subject for this attacker. */
export async function nextRefusal(attacker: Attacker, operation: 'Publish' | 'Subscription', serverSubject: string, before: number): Promise<string> {
  return until(() => (refusalsOf(attacker, operation, serverSubject) > before ? attacker.violations.seen.at(-1) : undefined), {
    description: `the server refusing ${attacker.label}'s ${operation.toLowerCase()} on ${serverSubject}`,
    timeoutMs: 10_000,
  });
}

/** Publishes on core NATS (the body as JSON, or empty) and resolves with the server's refusal. */
export async function publishRefused(attacker: Attacker, subject: string, data?: unknown): Promise<string> {
  const serverSubject = attacker.connection.namespace.subject(subject);
  const before = refusalsOf(attacker, 'Publish', serverSubject);
  publishNotice(attacker.connection, subject, data);
  await flushConnection(attacker.connection);
  return nextRefusal(attacker, 'Publish', serverSubject, before);
}

/** Runs `attempt` (a request to a subject the attacker may not publish on) and resolves with the refusal and how the request ended. */
export async function requestRefused(attacker: Attacker, subject: string, attempt: () => Promise<unknown>): Promise<{ readonly refusal: string; readonly outcome: string }> {
  const serverSubject = attacker.connection.namespace.subject(subject);
  const before = refusalsOf(attacker, 'Publish', serverSubject);
  const outcome = await attempt().then(
    (answer) => `answered ${JSON.stringify(answer)}`,
    (error: unknown) => `failed: ${error instanceof Error ? error.name : String(error)}`,
  );
  return { refusal: await nextRefusal(attacker, 'Publish', serverSubject, before), outcome };
}

export function subscriptionRefusals(attacker: Attacker, serverSubject: string): number {
  return refusalsOf(attacker, 'Subscription', serverSubject);
}

/** Publishes an event to its stream as the attacker (acknowledged on its own inbox); resolves with its stream sequence. */
export async function publishEvent(attacker: Attacker, subject: string, event: { readonly eventId: string }, messageId?: string): Promise<number> {
  return (await publish(attacker.connection, { subject, data: event, messageId: messageId ?? event.eventId, retry: { maxAttempts: 1 } })).seq;
}
