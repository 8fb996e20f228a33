import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@switchyard/testing';
import { createDataSource } from '../../../data-source/data-source.factory';
import { runMigrations } from '../../../migrations/migration.runner';
import { readTimelineRows } from '../timeline.reader';
import { TimelineNotice1795990800000 } from './1795990800000-timeline-notice.migration';

const TASK = 'task-notice';

/** A row as the transcript projector writes it; without a notice code, the column is not named (as before the migration). */
async function insertRow(dataSource: DataSource, options: { id: string; seq: number; type: string; content: string; noticeCode?: string }): Promise<void> {
  const parameters = [options.id, TASK, options.seq, options.type, options.content];
  if (options.noticeCode === undefined) {
    await dataSource.query(`insert into task_message (id, task_id, seq, attempt, type, content, created_at) values ($1, $2, $3, 1, $4, $5, now())`, parameters);
    return;
  }
  await dataSource.query(`insert into task_message (id, task_id, seq, attempt, type, content, notice_code, created_at) values ($1, $2, $3, 1, $4, $5, $6, now())`, [
    ...parameters,
    options.noticeCode,
  ]);
}

describe('transcript migration: notice rows in the timeline (real Postgres)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    await runMigrations({ url: database.url });
    dataSource = createDataSource({ url: database.url });
    await dataSource.initialize();
  });
  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database?.drop();
  });

  it('stores a notice row with its code, reads it back as a timeline entry, and still refuses unknown types', async () => {
    await insertRow(dataSource, { id: '0190f000-0000-7000-8000-000000000001', seq: 0, type: 'text', content: 'Reading the repo.' });
    await insertRow(dataSource, { id: '0190f000-0000-7000-8000-000000000002', seq: 1, type: 'notice', content: 'api: branch switchyard/task-1.', noticeCode: 'repository_work' });

    await expect(insertRow(dataSource, { id: '0190f000-0000-7000-8000-000000000003', seq: 2, type: 'announcement', content: 'x' })).rejects.toThrow(/task_message_type_check/);
    const { entries } = await readTimelineRows(dataSource, { taskId: TASK, afterSeq: -1, limit: 10 });
    expect(entries.map((entry) => [entry.type, entry.noticeCode, entry.content])).toEqual([
      ['text', null, 'Reading the repo.'],
      ['notice', 'repository_work', 'api: branch switchyard/task-1.'],
    ]);
  });

  it('reverts by dropping the notice rows and their column, and applies again', async () => {
    // Run directly: later migrations may follow this one in the list.
    const migration = new TimelineNotice1795990800000();
    await migration.down(dataSource.createQueryRunner());
    expect(await dataSource.query(`select seq, type from task_message where task_id = $1`, [TASK])).toEqual([{ seq: 0, type: 'text' }]);
    await expect(insertRow(dataSource, { id: '0190f000-0000-7000-8000-000000000004', seq: 3, type: 'notice', content: 'x' })).rejects.toThrow(/task_message_type_check/);

    await migration.up(dataSource.createQueryRunner());
    await insertRow(dataSource, { id: '0190f000-0000-7000-8000-000000000005', seq: 4, type: 'notice', content: 'again', noticeCode: 'resume_skipped' });
    expect(await dataSource.query(`select seq, type, notice_code from task_message where task_id = $1 order by seq`, [TASK])).toEqual([
      { seq: 0, type: 'text', notice_code: null },
      { seq: 4, type: 'notice', notice_code: 'resume_skipped' },
    ]);
  });
});
