import { createEvent, subjects } from '@switchyard/contracts';
import { createTestDatabase, type TestDatabase } from '@switchyard/testing';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../../data-source/data-source.factory';
import { runMigrations } from '../../migrations/migration.runner';
import { attemptKey } from '../record/attempt-claims.reader';
import { readAttemptHolders } from './attempt-holders.reader';

describe('readAttemptHolders (real Postgres)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    await runMigrations({ url: database.url });
    dataSource = createDataSource({ url: database.url, applicationName: 'attempt-holders-test' });
    await dataSource.initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  /** The queue row as the claim leaves it, and the `task.claimed` events the record keeps. */
  async function seedTask(task: { taskId: string; attempt: number; daemonId: string | null; claims: Array<{ attempt: number; daemonId: string }> }): Promise<void> {
    await dataSource.query(
      `insert into agent_task_queue (task_id, workspace_id, agent_id, runtime_id, source_kind, priority, status, attempt, max_attempts, enqueued_at, daemon_id, version)
       values ($1, 'default', 'agent-1', 'runtime-1', 'quick_create', 0, 'running', $2, 3, now(), $3, 1)`,
      [task.taskId, task.attempt, task.daemonId],
    );
    for (const claim of task.claims) {
      const claimed = createEvent({ type: 'task.claimed', payload: { taskId: task.taskId, attempt: claim.attempt, daemonId: claim.daemonId, runtimeId: 'runtime-1', startBy: new Date().toISOString() } });
      await dataSource.query(
        `insert into outbox_event (id, aggregate_id, version, type, subject, payload, occurred_at) values ($1, $2, $3, 'task.claimed', $4, $5, now())`,
        [claimed.eventId, task.taskId, claim.attempt, subjects.forEvent(claimed, 'queue'), JSON.stringify(claimed)],
      );
    }
  }

  it('names the current attempt’s holder from the queue row and an earlier one’s from its claim, for a whole batch', async () => {
    // Given a task on its second attempt, another claimed by nobody yet
    await seedTask({ taskId: 'task-retried', attempt: 2, daemonId: 'daemon-b', claims: [{ attempt: 1, daemonId: 'daemon-a' }, { attempt: 2, daemonId: 'daemon-b' }] });
    await seedTask({ taskId: 'task-queued', attempt: 0, daemonId: null, claims: [] });
    const pairs = [
      { taskId: 'task-retried', attempt: 1 },
      { taskId: 'task-retried', attempt: 2 },
      { taskId: 'task-retried', attempt: 2 },
      { taskId: 'task-retried', attempt: 3 },
      { taskId: 'task-queued', attempt: 1 },
      { taskId: 'task-unknown', attempt: 1 },
    ];
    // When the batch's holders are read
    const holders = await readAttemptHolders(dataSource, pairs);
    // Then each attempt has its daemon, and a later, unclaimed or unknown one has none
    expect(holders).toEqual(
      new Map([
        [attemptKey(pairs[0]!), 'daemon-a'],
        [attemptKey(pairs[1]!), 'daemon-b'],
        [attemptKey(pairs[3]!), undefined],
        [attemptKey(pairs[4]!), undefined],
        [attemptKey(pairs[5]!), undefined],
      ]),
    );
  });
});
