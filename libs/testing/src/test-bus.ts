import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  connectMessaging,
  inboxPrefixOf,
  loadBusAuthority,
  mintUserCredentials,
  writeCredentialsFile,
  type BusAuthority,
  type BusIdentity,
  type ConnectMessagingOptions,
  type MessagingConnection,
} from '@switchyard/messaging';
import { TEST_BUS_AUTHORITY_KEY } from './test-infrastructure';
import { testNatsUrl } from './test-environment';

let authority: BusAuthority | undefined;

/** The authority of the jest bootstrap's operator-mode NATS: tests mint their users from it. */
export function testBusAuthority(): BusAuthority {
  const directory = process.env[TEST_BUS_AUTHORITY_KEY];
  if (!directory) throw new Error(`${TEST_BUS_AUTHORITY_KEY} is not set: run tests through jest so libs/testing's global setup can provide it`);
  authority ??= loadBusAuthority(directory);
  return authority;
}

/** A test's own stand-in for operators' tools: every subject, never given to a service under test. */
export const TEST_TOOLING: BusIdentity = { kind: 'tooling', name: 'test' };

/** `.creds` text of a new user for `identity`, its permissions in `namespace`. */
export async function testCredentials(identity: BusIdentity, namespace?: string): Promise<string> {
  return (await mintUserCredentials(testBusAuthority(), { identity, namespace })).creds;
}

/** The same, written to a 0600 file for a process that reads `NATS_CREDENTIALS_FILE`. */
export async function testCredentialsFile(identity: BusIdentity, namespace?: string): Promise<string> {
  const directory = mkdtempSync(path.join(tmpdir(), 'switchyard-test-creds-'));
  return writeCredentialsFile(path.join(directory, 'user.creds'), await testCredentials(identity, namespace));
}

/**
 * How long a connection of a test, or of a service under test, may take to open. CI runs saw
 * connections to the shared test server time out at the services' 10 s with both cores loaded,
 * while the files after them connected at once.
 */
export const TEST_CONNECT_TIMEOUT_MS = 30_000;

/** How to connect to the test bus as `identity` (test tooling by default). */
export async function testMessagingOptions(options: {
  readonly name: string;
  readonly namespace?: string | undefined;
  readonly identity?: BusIdentity;
}): Promise<ConnectMessagingOptions> {
  const identity = options.identity ?? TEST_TOOLING;
  return {
    url: testNatsUrl(),
    name: options.name,
    connectTimeoutMs: TEST_CONNECT_TIMEOUT_MS,
    ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
    credentials: await testCredentials(identity, options.namespace),
    inboxPrefix: inboxPrefixOf(identity),
    ...(identity.kind === 'daemon' ? { jetStreamAccess: 'publish' as const } : {}),
  };
}

/** A messaging connection to the test bus as `identity` (test tooling by default). */
export async function connectTestMessaging(
  options: { readonly name: string; readonly namespace?: string | undefined; readonly identity?: BusIdentity } & Partial<ConnectMessagingOptions>,
): Promise<MessagingConnection> {
  const { identity, ...rest } = options;
  const defaults = await testMessagingOptions({ name: options.name, namespace: options.namespace, ...(identity ? { identity } : {}) });
  return connectMessaging({ ...rest, ...defaults, ...(rest.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: rest.connectTimeoutMs }) });
}
