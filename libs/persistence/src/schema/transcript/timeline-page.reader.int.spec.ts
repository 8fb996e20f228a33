import type { DataSource } from 'typeorm';
import type { JsonValue, TimelineEntry } from '@switchyard/contracts';
import { createTestDatabase, type TestDatabase } from '@switchyard/testing';
import { createDataSource } from '../../data-source/data-source.factory';
import { runMigrations } from '../../migrations/migration.runner';
import { timelineEntryJson } from './timeline-entry.json';
import { readTimelinePageJson } from './timeline-page.reader';
import { readTimelineRows } from './timeline.reader';

const TASK = 'task-page';

/** Row `seq` as the projector writes it: the columns, and (when `stored`) its API text. */
function entryAt(seq: number): TimelineEntry {
  const input: JsonValue | null = seq % 3 === 0 ? { zeta: seq, a: [1.5, { yy: 'q"uote', b: null }], '7': 'seven', émoji: '☃' } : null;
  return {
    id: `0190f000-0000-7000-8000-${String(seq).padStart(12, '0')}`,
    taskId: TASK,
    seq,
    attempt: 1,
    type: input === null ? 'text' : 'tool_use',
    tool: input === null ? null : 'bash',
    callId: input === null ? null : `call-${seq}`,
    content: input === null ? `line ${seq}\n\t"quoted" \u0001 ☃` : null,
    input,
    output: null,
    outputTruncated: false,
    toolStatus: null,
    errorCode: null,
    noticeCode: null,
    createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, 0, seq)).toISOString(),
  };
}

async function insertRow(dataSource: DataSource, entry: TimelineEntry, stored: boolean): Promise<void> {
  await dataSource.query(
    `insert into task_message (id, task_id, seq, attempt, type, tool, call_id, content, input, created_at, entry_json)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11)`,
    [entry.id, entry.taskId, entry.seq, entry.attempt, entry.type, entry.tool, entry.callId, entry.content, entry.input === null ? null : JSON.stringify(entry.input), entry.createdAt, stored ? timelineEntryJson(entry) : null],
  );
}

describe('transcript reader: timeline pages as the API JSON (real Postgres)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    await runMigrations({ url: database.url });
    dataSource = createDataSource({ url: database.url });
    await dataSource.initialize();
    // Seqs 0..29 with a gap at 12; the first ten written before `entry_json` existed.
    for (let seq = 0; seq < 30; seq += 1) if (seq !== 12) await insertRow(dataSource, entryAt(seq), seq >= 10);
  });
  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database?.drop();
  });

  /** What replay sent before stored texts: the rows read from their columns, serialized by JSON.stringify. */
  async function columnsPageJson(afterSeq: number, limit: number): Promise<string> {
    return JSON.stringify((await readTimelineRows(dataSource, { taskId: TASK, afterSeq, limit })).entries);
  }

  it('pages forward with the very text the columns give, stored rows and old rows alike', async () => {
    for (const [afterSeq, limit] of [
      [-1, 8],
      [-1, 15],
      [9, 5],
      [11, 1000],
    ] as const) {
      const page = await readTimelinePageJson(dataSource, { taskId: TASK, afterSeq, limit });
      expect(page.entriesJson).toBe(await columnsPageJson(afterSeq, limit));
    }
    expect(await readTimelinePageJson(dataSource, { taskId: TASK, afterSeq: -1, limit: 15 })).toMatchObject({ count: 15, lastSeq: 15, hasMore: true });
    expect(await readTimelinePageJson(dataSource, { taskId: TASK, afterSeq: 20, limit: 9 })).toMatchObject({ count: 9, lastSeq: 29, hasMore: false });
    expect(await readTimelinePageJson(dataSource, { taskId: TASK, afterSeq: 29, limit: 9 })).toEqual({ entriesJson: '[]', count: 0, lastSeq: null, hasMore: false });
  });

  it('opens the newest page and pages back below a seq, still in seq order', async () => {
    const newest = await readTimelinePageJson(dataSource, { taskId: TASK, beforeSeq: null, limit: 5 });
    expect(newest).toMatchObject({ count: 5, lastSeq: 29, hasMore: false });
    expect(newest.entriesJson).toBe(await columnsPageJson(24, 5));

    // Across the gap and into the old rows.
    const earlier = await readTimelinePageJson(dataSource, { taskId: TASK, beforeSeq: 14, limit: 6 });
    expect(earlier).toMatchObject({ count: 6, lastSeq: 13, hasMore: true });
    expect((JSON.parse(earlier.entriesJson) as TimelineEntry[]).map((entry) => entry.seq)).toEqual([7, 8, 9, 10, 11, 13]);
    expect(earlier.entriesJson).toBe(await columnsPageJson(6, 6));

    expect(await readTimelinePageJson(dataSource, { taskId: TASK, beforeSeq: 0, limit: 5 })).toEqual({ entriesJson: '[]', count: 0, lastSeq: null, hasMore: true });
    expect(await readTimelinePageJson(dataSource, { taskId: 'task-none', beforeSeq: null, limit: 5 })).toEqual({ entriesJson: '[]', count: 0, lastSeq: null, hasMore: false });
  });

  it('reads a page of a long task by walking the index, even when the statistics know nothing of it', async () => {
    // Statistics taken over 200 short tasks, before this one grew: the planner then guesses a
    // short task's rows for it, and without the keyset functions it scanned every row past the
    // cursor and sorted them (a bitmap scan and a top-N sort).
    await dataSource.query(
      `insert into task_message (id, task_id, seq, attempt, type, content, created_at, entry_json)
       select gen_random_uuid(), 'task-short-' || (g % 200), g, 1, 'text', 'x', now(), '{}' from generate_series(1, 4000) g`,
    );
    await dataSource.query('analyze task_message');
    await dataSource.query(
      `insert into task_message (id, task_id, seq, attempt, type, content, created_at, entry_json)
       select gen_random_uuid(), $1, g, 1, 'text', 'x', now(), '{}' from generate_series(1, 20000) g`,
      ['task-long'],
    );
    // Index entries this backend has read and not yet reported (a count that only grows until
    // it is flushed to the shared statistics, hence the difference inside one transaction).
    const counted = async (runner: DataSource['manager']): Promise<number> =>
      Number((await runner.query<Array<{ read: string }>>(`select pg_stat_get_xact_tuples_returned('task_message_task_id_seq_key'::regclass) as read`))[0]!.read);
    const indexEntriesRead = async (read: (runner: DataSource['manager']) => Promise<unknown>): Promise<number> =>
      dataSource.transaction(async (manager) => {
        const before = await counted(manager);
        await read(manager);
        return (await counted(manager)) - before;
      });
    // A page of 100 reads the page's entries (and the planner's probes of the index's ends), not
    // the 19,000 after the cursor; forwards, as the WebSocket backfill reads, and backwards.
    const reads = [
      await indexEntriesRead((runner) => readTimelinePageJson(runner, { taskId: 'task-long', afterSeq: 1_000, limit: 100 })),
      await indexEntriesRead((runner) => readTimelineRows(runner, { taskId: 'task-long', afterSeq: 1_000, limit: 100 })),
      await indexEntriesRead((runner) => readTimelinePageJson(runner, { taskId: 'task-long', beforeSeq: 5_000, limit: 100 })),
    ];
    for (const read of reads) expect(read).toBeLessThan(1_000);
  });
});
