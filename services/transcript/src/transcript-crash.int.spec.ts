import { itOnPostgresServer, testCredentialsFile, testNatsUrl, uniqueNamespace } from '@switchyard/testing';
import { TimelineTestBed, buildDist, startTranscriptProcess, waitFor, type TranscriptProcess } from './timeline-test.spec-helper';

// The service as it runs in production, killed with SIGKILL like a crashed pod.
describe('transcript service killed mid-run (real process, NATS and Postgres)', () => {
  let bed: TimelineTestBed;
  let service: TranscriptProcess | undefined;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    buildDist();
    bed = await TimelineTestBed.create();
    // A short ack wait: what the dead process had pulled comes back within the test.
    const credentials = await testCredentialsFile({ kind: 'service', name: 'transcript' }, bed.namespace);
    env = { NATS_URL: testNatsUrl(), NATS_CREDENTIALS_FILE: credentials, DATABASE_URL: bed.database.url, SWITCHYARD_NAMESPACE: bed.namespace, TRANSCRIPT_ACK_WAIT_MS: '1500' };
  });
  afterAll(async () => {
    await service?.kill('SIGKILL');
    await bed?.close();
  });

  const seqsOf = async (taskId: string): Promise<number[]> => (await bed.rows(taskId)).map((row) => row['seq'] as number);
  const range = (length: number): number[] => Array.from({ length }, (_, seq) => seq);

  itOnPostgresServer('rolls back the batch it was writing and the next process writes it, once', async () => {
    service = await startTranscriptProcess(env);
    const taskId = uniqueNamespace('task');
    await bed.publishMessage(taskId, 0, { type: 'text', text: 'warm-up' });
    await waitFor(async () => (await seqsOf(taskId)).length === 1, { description: 'the warm-up row' });
    const session = await bed.session();
    try {
      // Given the process in the middle of a batch: rows inserted, its checkpoint write blocked
      await session.query('begin');
      await session.query('select * from consumer_checkpoint for update');
      for (let seq = 1; seq <= 50; seq += 1) await bed.publishMessage(taskId, seq, { type: 'text', text: `message ${seq}` });
      await waitFor(async () => (await session.query('select 1 from pg_locks where not granted')).rowCount! > 0, { description: 'the batch to block' });
      // When it is killed there
      await service.kill('SIGKILL');
      await session.query('commit');
    } finally {
      await session.end();
    }
    // Then its uncommitted batch is gone with it (only this database's sessions: other test files
    // run transcript services on the same server at the same time)
    await waitFor(
      async () => (await bed.query("select 1 from pg_stat_activity where application_name = 'transcript' and datname = current_database()")).length === 0,
      { description: 'its database sessions to end' },
    );
    expect(await seqsOf(taskId)).toEqual([0]);
    // And a new process writes every message exactly once
    service = await startTranscriptProcess(env);
    await waitFor(async () => (await seqsOf(taskId)).length === 51, { description: 'all rows after the restart' });
    expect(await seqsOf(taskId)).toEqual(range(51));
  });

  it('loses and duplicates nothing when killed at an arbitrary moment of a busy stream', async () => {
    service ??= await startTranscriptProcess(env);
    // Given 20 tasks publishing 100 messages each, like daemons (per task in order)
    const tasks = Array.from({ length: 20 }, () => uniqueNamespace('task'));
    const publishing = Promise.all(
      tasks.map(async (taskId) => {
        for (let seq = 0; seq < 100; seq += 1) await bed.publishMessage(taskId, seq, { type: 'text', text: `${taskId} message ${seq}` });
      }),
    );
    // When the service is killed while rows are being written, and started again
    const count = async (): Promise<number> => Number((await bed.query<{ count: string }>('select count(*) from task_message where task_id = any($1)', [tasks]))[0]!.count);
    await waitFor(async () => (await count()) >= 300, { description: 'rows to flow' });
    await service.kill('SIGKILL');
    service = await startTranscriptProcess(env);
    await publishing;
    // Then every task has all its messages, once
    await waitFor(async () => (await count()) === 2_000, { description: 'all 2000 rows', timeoutMs: 60_000 });
    for (const taskId of tasks) expect(await seqsOf(taskId)).toEqual(range(100));
  });
});
