import { randomBytes } from 'node:crypto';
import { TEST_DATABASE_URL_KEY, TEST_NATS_URL_KEY } from './test-infrastructure';

function required(key: string): string {
  const value = process.env[key];
  if (!value) {
    throw new Error(`${key} is not set: run tests through jest so libs/testing's global setup can provide it`);
  }
  return value;
}

/** URL of the NATS server (with JetStream) chosen by the jest bootstrap. */
export function testNatsUrl(): string {
  return required(TEST_NATS_URL_KEY);
}

/**
 * Admin URL of the Postgres server chosen by the jest bootstrap, or `embedded` when none answered.
 * Tests should not use it directly: `createTestDatabase()` gives each test file its own database.
 */
export function testDatabaseServer(): string {
  return required(TEST_DATABASE_URL_KEY);
}

/**
 * A short unique token for isolating one test's streams, subjects and schemas from every
 * other test sharing the same servers (lowercase letters and digits, starts with a letter).
 */
export function uniqueNamespace(prefix = 't'): string {
  return `${prefix}${randomBytes(5).toString('hex')}`;
}

/** True when tests run against a real Postgres server, false in embedded mode. */
export function hasPostgresServer(): boolean {
  return testDatabaseServer() !== 'embedded';
}

/**
 * For the few tests that exercise what only a Postgres server has (several real sessions,
 * `pg_stat_activity`, `pg_terminate_backend`, advisory locks that exclude). In embedded mode they
 * are reported as skipped, never as passed; CI runs with a server, so they always run there.
 */
export function itOnPostgresServer(name: string, test: () => Promise<void>, timeoutMs?: number): void {
  (hasPostgresServer() ? it : it.skip)(name, test, timeoutMs);
}
