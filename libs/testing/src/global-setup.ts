import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// eslint-disable-next-line @nx/enforce-module-boundaries -- jest loads global setup outside its module map, where aliases do not resolve
import { createBusAuthority, saveBusAuthority } from '../../messaging/src/trust/bus-authority';
// eslint-disable-next-line @nx/enforce-module-boundaries -- as above
import { startAuthenticatedNatsServer } from '../../messaging/src/trust/authenticated-nats-server';
import {
  TEST_BUS_AUTHORITY_KEY,
  TEST_DATABASE_URL_KEY,
  TEST_NATS_URL_KEY,
  EMBEDDED_DATABASE_MARKER,
  WELL_KNOWN_DATABASE_URLS,
  postgresAnswers,
} from './test-infrastructure';
import { registerTeardown } from './global-teardown-registry';

/**
 * Runs once in jest's parent process. Starts a private nats-server in operator mode (every test
 * of a Switchyard system runs with authentication on; the machine's open server is not used) and
 * keeps its authority where workers can mint users from it. Uses DATABASE_URL when given, else
 * the Postgres on its standard local port, else marks the database as embedded. Workers inherit
 * the choices through the environment.
 */
export default async function globalSetup(): Promise<void> {
  // Every test file provisions the stream catalog in its own namespace; JetStream reserves each
  // stream's max_bytes, so keep test streams small (children and workers inherit this).
  process.env['SWITCHYARD_STREAM_MAX_BYTES_CAP'] ??= String(64 * 1024 * 1024);
  if (!process.env[TEST_NATS_URL_KEY]) {
    await startTestBus();
  }
  if (!process.env[TEST_DATABASE_URL_KEY]) {
    process.env[TEST_DATABASE_URL_KEY] = await chooseDatabase();
    const database = process.env[TEST_DATABASE_URL_KEY] === EMBEDDED_DATABASE_MARKER ? 'embedded, one per test file' : process.env[TEST_DATABASE_URL_KEY];
    process.stderr.write(`\ntest infrastructure: NATS ${process.env[TEST_NATS_URL_KEY]}, database ${database}\n`);
  }
}

/** Set to 1 to test as on a machine without local servers: private nats-server, embedded database. */
const IGNORE_LOCAL_SERVERS_KEY = 'SWITCHYARD_TEST_IGNORE_LOCAL_SERVERS';
const ignoreLocalServers = (): boolean => process.env[IGNORE_LOCAL_SERVERS_KEY] === '1';

async function startTestBus(): Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), 'switchyard-test-bus-'));
  const authority = createBusAuthority();
  const authorityDirectory = path.join(root, 'authority');
  saveBusAuthority(authorityDirectory, authority);
  const server = await startAuthenticatedNatsServer({ directory: path.join(root, 'nats'), authority });
  registerTeardown(async () => {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  });
  process.env[TEST_NATS_URL_KEY] = server.url;
  process.env[TEST_BUS_AUTHORITY_KEY] = authorityDirectory;
}

async function chooseDatabase(): Promise<string> {
  const given = process.env['DATABASE_URL'];
  if (given) return given;
  for (const url of ignoreLocalServers() ? [] : WELL_KNOWN_DATABASE_URLS) {
    if (await postgresAnswers(url)) return url;
  }
  // No server: each test database becomes its own in-process embedded database (see test-database.ts).
  return EMBEDDED_DATABASE_MARKER;
}
