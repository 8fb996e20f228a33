import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// eslint-disable-next-line @nx/enforce-module-boundaries -- jest loads global setup outside its module map, where aliases do not resolve
import { startNatsServer } from '../../messaging/src/nats-server/nats-server.process';
import {
  TEST_DATABASE_URL_KEY,
  TEST_NATS_URL_KEY,
  EMBEDDED_DATABASE_MARKER,
  WELL_KNOWN_DATABASE_URLS,
  WELL_KNOWN_NATS_URL,
  natsWithJetStreamAnswers,
  postgresAnswers,
} from './test-infrastructure';
import { registerTeardown } from './global-teardown-registry';

/**
 * Runs once in jest's parent process. Uses NATS_URL / DATABASE_URL when given, else the servers
 * on their standard local ports, else starts a private nats-server from PATH and marks the
 * database as embedded. Workers inherit the chosen URLs through the environment.
 */
export default async function globalSetup(): Promise<void> {
  // Every test file provisions the stream catalog in its own namespace; JetStream reserves each
  // stream's max_bytes, so keep test streams small (children and workers inherit this).
  process.env['SWITCHYARD_STREAM_MAX_BYTES_CAP'] ??= String(64 * 1024 * 1024);
  if (!process.env[TEST_NATS_URL_KEY]) {
    process.env[TEST_NATS_URL_KEY] = await chooseNats();
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

async function chooseNats(): Promise<string> {
  const given = process.env['NATS_URL'];
  if (given) return given;
  if (!ignoreLocalServers() && (await natsWithJetStreamAnswers(WELL_KNOWN_NATS_URL))) return WELL_KNOWN_NATS_URL;
  const server = await startNatsServer({ storeDirectory: mkdtempSync(path.join(tmpdir(), 'switchyard-test-nats-')) });
  registerTeardown(() => server.stop());
  return server.url;
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
