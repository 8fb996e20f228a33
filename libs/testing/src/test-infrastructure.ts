import { connect } from '@nats-io/transport-node';
import { Client } from 'pg';

/** Environment keys through which the jest bootstrap hands its NATS and database to test workers. */
export const TEST_NATS_URL_KEY = 'SWITCHYARD_TEST_NATS_URL';
export const TEST_DATABASE_URL_KEY = 'SWITCHYARD_TEST_DATABASE_URL';
/** Directory of the test bus's authority, from which tests mint the users they connect as. */
export const TEST_BUS_AUTHORITY_KEY = 'SWITCHYARD_TEST_BUS_AUTHORITY';
/** Value of TEST_DATABASE_URL_KEY when no Postgres server answered. */
export const EMBEDDED_DATABASE_MARKER = 'embedded';

/** The servers CI machines run for us; tests fall back to private ones when these are absent. */
export const WELL_KNOWN_NATS_URL = 'nats://127.0.0.1:4222';
export const WELL_KNOWN_DATABASE_URLS = [
  'postgres://postgres@127.0.0.1:5432/test',
  'postgres://postgres@127.0.0.1:5432/postgres',
];

export async function natsWithJetStreamAnswers(url: string): Promise<boolean> {
  try {
    const connection = await connect({ servers: url, timeout: 2_000, reconnect: false });
    try {
      // The JetStream API answers on core NATS; a server without JetStream has no responder.
      const reply = await connection.request('$JS.API.INFO', undefined, { timeout: 2_000 });
      const info = JSON.parse(new TextDecoder().decode(reply.data)) as { error?: unknown };
      return info.error === undefined;
    } finally {
      await connection.close();
    }
  } catch {
    return false;
  }
}

export async function postgresAnswers(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
