import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { randomBytes } from 'node:crypto';
import { createBusAuthority, loadBusAuthority, saveBusAuthority, startAuthenticatedNatsServer, type BusAuthority } from '@switchyard/messaging';
import { runMigrations, startEmbeddedDatabase } from '@switchyard/persistence';
import { WELL_KNOWN_DATABASE_URLS, postgresAnswers } from '@switchyard/testing';

export interface BenchInfrastructure {
  readonly natsUrl: string;
  readonly natsDescription: string;
  /** The keys the bench's NATS trusts: every process of the bench gets its own user from them. */
  readonly authority: BusAuthority;
  readonly databaseUrl: string;
  readonly databaseDescription: string;
  stop(): Promise<void>;
}

/**
 * The servers a bench run uses. NATS runs in operator mode, as deployed: a private nats-server with
 * a fresh authority, or NATS_URL with the authority it trusts in SWITCHYARD_BUS_AUTHORITY. The
 * database is DATABASE_URL, else the local Postgres, else the embedded one; always a fresh one, migrated.
 */
export async function provideBenchInfrastructure(): Promise<BenchInfrastructure> {
  const stops: Array<() => Promise<void>> = [];
  let natsUrl = process.env['NATS_URL'];
  let natsDescription = 'NATS_URL (operator mode)';
  let authority: BusAuthority;
  if (natsUrl) {
    const authorityDirectory = process.env['SWITCHYARD_BUS_AUTHORITY'];
    if (!authorityDirectory) throw new Error('NATS_URL needs SWITCHYARD_BUS_AUTHORITY: the directory of the authority that server trusts');
    authority = loadBusAuthority(authorityDirectory);
  } else {
    const directory = mkdtempSync(path.join(tmpdir(), 'switchyard-bench-nats-'));
    authority = createBusAuthority();
    saveBusAuthority(path.join(directory, 'authority'), authority);
    const server = await startAuthenticatedNatsServer({ directory: path.join(directory, 'nats'), authority });
    stops.push(async () => {
      await server.stop();
      rmSync(directory, { recursive: true, force: true });
    });
    natsUrl = server.url;
    natsDescription = 'private nats-server (operator mode)';
  }

  const stopAll = async (): Promise<void> => {
    for (const stop of stops.reverse()) await stop();
  };
  let databaseUrl: string;
  let databaseDescription: string;
  // A failure half-way (migrations, say) must not leave the database or the private server behind.
  try {
    let adminUrl = process.env['DATABASE_URL'];
    if (!adminUrl) {
      for (const url of WELL_KNOWN_DATABASE_URLS) {
        if (await postgresAnswers(url)) {
          adminUrl = url;
          break;
        }
      }
    }
    if (adminUrl) {
      const name = `sy_bench_${randomBytes(4).toString('hex')}`;
      await adminQuery(adminUrl, `create database ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
      databaseDescription = 'Postgres server (fresh database)';
      stops.push(() => adminQuery(adminUrl, `drop database ${name} with (force)`));
    } else {
      const embedded = await startEmbeddedDatabase({});
      stops.push(() => embedded.stop());
      databaseUrl = embedded.url;
      databaseDescription = 'embedded (PGlite)';
    }
    await runMigrations({ url: databaseUrl });
  } catch (error) {
    await stopAll().catch(() => undefined);
    throw error;
  }
  return {
    natsUrl,
    natsDescription,
    authority,
    databaseUrl,
    databaseDescription,
    stop: stopAll,
  };
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function serverVersions(databaseUrl: string): Promise<{ postgres: string }> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ version: string }>('select version()');
    return { postgres: result.rows[0]?.version.split(' on ')[0] ?? 'unknown' };
  } finally {
    await client.end();
  }
}
