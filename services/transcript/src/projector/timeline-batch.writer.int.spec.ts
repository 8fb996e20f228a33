import type { DataSource } from 'typeorm';
import { openMigratedTestDatabase, type MigratedTestDatabase } from '@switchyard/testing';
import { COMPLETE_TOOL_RESULTS, INSERT_MESSAGES } from './timeline-batch.writer';

/** The plan Postgres picks for a statement, as JSON text. */
async function planOf(dataSource: DataSource, statement: string, parameters: unknown[]): Promise<string> {
  const rows = await dataSource.query<Array<{ 'QUERY PLAN': unknown }>>(`explain (format json) ${statement}`, parameters);
  return JSON.stringify(rows[0]?.['QUERY PLAN']);
}

describe('timeline batch writer statements (real Postgres)', () => {
  let database: MigratedTestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await openMigratedTestDatabase({ applicationName: 'timeline-writer-test', poolSize: 2 });
    dataSource = database.dataSource;
    // A long timeline of tool calls and their results, as the projector would have stored it.
    await dataSource.query(`
      insert into task_message (id, task_id, seq, attempt, type, tool, call_id, output_truncated, created_at, entry_json)
      select gen_random_uuid(), 'task-long', s, 1, case when s % 2 = 0 then 'tool_use' else 'tool_result' end, 'bash', 'call-' || (s / 2), false, now(), '{}'
        from generate_series(0, 39999) as s`);
    await dataSource.query('analyze task_message');
  });

  afterAll(() => database?.close());

  // Both pair a result with its call by (task_id, call_id). Without an index for that, each was a
  // scan of the whole table, for every batch: ingest slowed as timelines grew.
  it('pairs tool results with their calls by index, not by reading the whole table', async () => {
    const unnamedResult = [
      ['0190f000-0000-7000-8000-000000000001'], ['task-long'], [40_001], [1], ['tool_result'], [null], ['call-7'], [null], [null],
      ['done'], [false], ['ok'], [null], [null], [new Date().toISOString()], ['{"type":"tool_result","tool":null,"output":"done"}'],
    ];
    const insertPlan = await planOf(dataSource, INSERT_MESSAGES, unnamedResult);
    const namingPlan = await planOf(dataSource, COMPLETE_TOOL_RESULTS, [['task-long'], ['call-7'], ['bash']]);

    expect(insertPlan).toContain('task_message_tool_call');
    expect(namingPlan).toContain('task_message_unnamed_tool_result');
    for (const plan of [insertPlan, namingPlan]) expect(plan).not.toContain('"Seq Scan"');
  });
});
