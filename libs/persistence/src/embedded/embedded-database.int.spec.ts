import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './embedded-database';

async function connected(url: string): Promise<Client> {
  const client = new Client({ connectionString: url });
  await client.connect();
  return client;
}

describe('embedded database (PGlite behind the wire multiplexer)', () => {
  let database: EmbeddedDatabase;
  const clients: Client[] = [];

  async function client(): Promise<Client> {
    const opened = await connected(database.url);
    clients.push(opened);
    return opened;
  }

  beforeAll(async () => {
    database = await startEmbeddedDatabase({ idleInTransactionTimeoutMilliseconds: 500 });
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((opened) => opened.end().catch(() => undefined)));
  });

  afterAll(async () => {
    await database.stop();
  });

  it('runs as the current user, root included, and answers on loopback', async () => {
    expect(database.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
    const opened = await client();
    const result = await opened.query<{ answer: number }>('select 1 as answer');
    expect(result.rows).toEqual([{ answer: 1 }]);
  });

  it('keeps 8 concurrent clients apart: parameterized queries and committed or rolled back transactions', async () => {
    const setup = await client();
    await setup.query('create table stress_row (id serial primary key, worker int not null, step int not null)');
    const workerCount = 8;
    const stepCount = 25;
    const wrongAnswers: unknown[] = [];

    await Promise.all(
      Array.from({ length: workerCount }, async (_, worker) => {
        const opened = await client();
        for (let step = 0; step < stepCount; step++) {
          const value = worker * 1000 + step;
          const answer = await opened.query<{ doubled: number; label: string }>(
            'select $1::int * 2 as doubled, $2::text as label',
            [value, `worker-${worker}`],
          );
          if (answer.rows[0]?.doubled !== value * 2 || answer.rows[0]?.label !== `worker-${worker}`) {
            wrongAnswers.push({ worker, step, rows: answer.rows });
          }
          await opened.query('begin');
          await opened.query('insert into stress_row (worker, step) values ($1, $2)', [worker, step]);
          const inside = await opened.query<{ count: number }>(
            'select count(*)::int as count from stress_row where worker = $1 and step = $2',
            [worker, step],
          );
          if (inside.rows[0]?.count !== 1) wrongAnswers.push({ worker, step, inside: inside.rows });
          await opened.query(step % 3 === 0 ? 'rollback' : 'commit');
        }
      }),
    );

    expect(wrongAnswers).toEqual([]);
    const committedPerWorker = Array.from({ length: stepCount }, (_, step) => step).filter((step) => step % 3 !== 0).length;
    const counts = await setup.query<{ worker: number; count: number }>(
      'select worker, count(*)::int as count from stress_row group by worker order by worker',
    );
    expect(counts.rows).toEqual(Array.from({ length: workerCount }, (_, worker) => ({ worker, count: committedPerWorker })));
  });

  it('rolls back a failed transaction of one client without disturbing the others', async () => {
    const first = await client();
    const second = await client();
    await first.query('create table failing_row (id int primary key)');
    await first.query('begin');
    await first.query('insert into failing_row values (1)');
    await expect(first.query('insert into failing_row values (1)')).rejects.toThrow(/duplicate key/);
    await expect(first.query('select 1')).rejects.toThrow(/current transaction is aborted/);
    const othersView = second.query<{ count: number }>('select count(*)::int as count from failing_row');
    await first.query('rollback');
    await expect(othersView).resolves.toMatchObject({ rows: [{ count: 0 }] });
  });

  it('gives each client its own named prepared statements', async () => {
    const first = await client();
    const second = await client();
    const [one, two] = await Promise.all([
      first.query<{ value: string }>({ name: 'same-name', text: "select 'first' as value" }),
      second.query<{ value: string }>({ name: 'same-name', text: "select 'second' as value" }),
    ]);
    expect(one.rows).toEqual([{ value: 'first' }]);
    expect(two.rows).toEqual([{ value: 'second' }]);
    const again = await first.query<{ value: string }>({ name: 'same-name', text: "select 'first' as value" });
    expect(again.rows).toEqual([{ value: 'first' }]);
  });

  it('rolls back the open transaction of a client that disconnects', async () => {
    const setup = await client();
    await setup.query('create table abandoned_row (id int primary key)');
    const leaving = await connected(database.url);
    await leaving.query('begin');
    await leaving.query('insert into abandoned_row values (1)');
    const waiting = setup.query<{ count: number }>('select count(*)::int as count from abandoned_row');
    await leaving.end();
    await expect(waiting).resolves.toMatchObject({ rows: [{ count: 0 }] });
  });

  it('disconnects a client idling in a transaction while others wait, instead of deadlocking', async () => {
    const idle = await client();
    const idleError = new Promise<Error>((resolve) => idle.on('error', resolve));
    const other = await client();
    await idle.query('begin');
    await idle.query('create table idle_row (id int)');
    // The other client waits for the session; the idle owner is cut off and rolled back.
    await expect(other.query("select to_regclass('idle_row') is null as gone")).resolves.toMatchObject({ rows: [{ gone: true }] });
    await expect(idleError).resolves.toThrow(/idle-in-transaction/);
  });
});

/** `d700` / `f600` and how many entries of the tree have it. */
function modesUnder(root: string): Record<string, number> {
  const counts: Record<string, number> = {};
  const visit = (entry: string): void => {
    const stats = lstatSync(entry);
    const key = `${stats.isDirectory() ? 'd' : 'f'}${(stats.mode & 0o777).toString(8)}`;
    counts[key] = (counts[key] ?? 0) + 1;
    if (stats.isDirectory()) for (const name of readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(root);
  return counts;
}

describe('embedded database with a data directory', () => {
  let parent: string;

  beforeAll(() => {
    parent = mkdtempSync(path.join(tmpdir(), 'switchyard-embedded-'));
  });

  afterAll(() => {
    rmSync(parent, { recursive: true, force: true });
  });

  it('keeps committed rows across a restart and refuses a second opener meanwhile', async () => {
    const dataDirectory = path.join(parent, 'pgdata');
    const first = await startEmbeddedDatabase({ dataDirectory });
    await expect(startEmbeddedDatabase({ dataDirectory })).rejects.toThrow(/already open|in use/);
    const writer = await connected(first.url);
    await writer.query('create table kept_row (id int primary key, label text not null)');
    await writer.query('insert into kept_row values ($1, $2)', [7, 'seven']);
    await writer.end();
    await first.stop();

    const second = await startEmbeddedDatabase({ dataDirectory });
    try {
      const reader = await connected(second.url);
      const result = await reader.query<{ id: number; label: string }>('select id, label from kept_row');
      await reader.end();
      expect(result.rows).toEqual([{ id: 7, label: 'seven' }]);
    } finally {
      await second.stop();
    }
  });

  it('keeps its data owner-only: every folder 0700, every file 0600, the lock file too', async () => {
    const dataDirectory = path.join(parent, 'private-pgdata');
    const database = await startEmbeddedDatabase({ dataDirectory });
    try {
      const writer = await connected(database.url);
      await writer.query('create table secret_row (id int primary key)');
      await writer.end();
      expect(Object.keys(modesUnder(dataDirectory)).sort()).toEqual(['d700', 'f600']);
      expect(modesUnder(`${dataDirectory}.lock`)).toEqual({ f600: 1 });
    } finally {
      await database.stop();
    }
  });

  it('tightens a data directory an earlier version left world-readable', async () => {
    const dataDirectory = path.join(parent, 'old-pgdata');
    await (await startEmbeddedDatabase({ dataDirectory })).stop();
    chmodSync(dataDirectory, 0o755);
    chmodSync(path.join(dataDirectory, 'PG_VERSION'), 0o666);

    const database = await startEmbeddedDatabase({ dataDirectory });
    await database.stop();

    expect(Object.keys(modesUnder(dataDirectory)).sort()).toEqual(['d700', 'f600']);
  });
});
