import { Client } from 'pg';
import { testDatabaseServer, uniqueNamespace } from './test-environment';
import { EMBEDDED_DATABASE_MARKER } from './test-infrastructure';

export interface TestDatabase {
  /** URL of a database no other test file uses; run migrations on it as needed. */
  readonly url: string;
  drop(): Promise<void>;
}

/**
 * A fresh database for one test file: `CREATE DATABASE sy_<unique>` on the Postgres server the
 * jest bootstrap chose, or, when there is none, a private in-memory embedded database.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const server = testDatabaseServer();
  if (server === EMBEDDED_DATABASE_MARKER) {
    // Loaded only when needed: persistence pulls in PGlite and NestJS, which a test run against a
    // Postgres server never needs.
    const { startEmbeddedDatabase } = await import('@switchyard/persistence');
    const embedded = await startEmbeddedDatabase({});
    return { url: embedded.url, drop: () => embedded.stop() };
  }
  const name = uniqueNamespace('sy_');
  await administer(server, `create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  let dropping: Promise<void> | undefined;
  return {
    url: url.toString(),
    // WITH (FORCE) ends connections a test forgot to close (Postgres 13+).
    drop: () => (dropping ??= administer(server, `drop database if exists ${name} with (force)`)),
  };
}

async function administer(serverUrl: string, statement: string): Promise<void> {
  // Generous: on a loaded CI machine a connect can take seconds; only a dead server should fail here.
  const client = new Client({ connectionString: serverUrl, connectionTimeoutMillis: 30_000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
