import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@switchyard/testing';
import { createDataSource } from '../../../data-source/data-source.factory';
import { runMigrations } from '../../../migrations/migration.runner';
import { withQueryRunner } from '../../../migrations/query-runner.spec-helper';
import { LocalDirectoryWait1795990400000 } from './1795990400000-local-directory-wait.migration';

/** A row as the queue projects it, in the given state, of one agent's issue. */
async function insertTask(dataSource: DataSource, options: { taskId: string; status: string; issueId: string }): Promise<void> {
  await dataSource.query(
    `insert into agent_task_queue (task_id, workspace_id, agent_id, runtime_id, source_kind, issue_id, priority, status, attempt, max_attempts, enqueued_at, version)
     values ($1, 'workspace-1', 'agent-1', 'runtime-1', 'issue', $2, 0, $3, 1, 2, now(), 2)`,
    [options.taskId, options.issueId, options.status],
  );
}

describe('queue migration: waiting for a local directory, repositories (real Postgres)', () => {
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

  it('takes the waiting state as a live attempt: one per (agent, issue), repositories none until reported', async () => {
    await insertTask(dataSource, { taskId: 'task-waiting', status: 'waiting_local_directory', issueId: 'issue-1' });

    await expect(insertTask(dataSource, { taskId: 'task-second', status: 'dispatched', issueId: 'issue-1' })).rejects.toThrow(/agent_task_queue_one_active_per_agent_issue/);
    await expect(insertTask(dataSource, { taskId: 'task-bad', status: 'sleeping', issueId: 'issue-2' })).rejects.toThrow(/agent_task_queue_status_check/);
    expect(await dataSource.query(`select status, repositories from agent_task_queue where task_id = 'task-waiting'`)).toEqual([
      { status: 'waiting_local_directory', repositories: [] },
    ]);
  });

  it('reverts to the old states, a waiting attempt becoming dispatched, and applies again', async () => {
    // Run directly: later migrations may follow this one in the list.
    const migration = new LocalDirectoryWait1795990400000();
    await withQueryRunner(dataSource, (runner) => migration.down(runner));
    expect(await dataSource.query(`select status from agent_task_queue where task_id = 'task-waiting'`)).toEqual([{ status: 'dispatched' }]);
    await expect(insertTask(dataSource, { taskId: 'task-after-revert', status: 'waiting_local_directory', issueId: 'issue-3' })).rejects.toThrow(
      /agent_task_queue_status_check/,
    );

    await withQueryRunner(dataSource, (runner) => migration.up(runner));
    await insertTask(dataSource, { taskId: 'task-after-reapply', status: 'waiting_local_directory', issueId: 'issue-3' });
  });
});
