import type { MigrationInterface, QueryRunner } from 'typeorm';

// Planned with bitmap scans and sorts off: the only plan left is the (task_id, seq) index walked in
// order, which stops after `row_limit` rows.
const INDEX_ORDER_ONLY = 'set enable_bitmapscan = off set enable_sort = off set enable_seqscan = off';

/**
 * Issue 23: a keyset page of one task's timeline read through functions that can only walk the
 * (task_id, seq) index. A task's rows are many more than the planner's estimate for a task id it
 * has no statistics of (a growing task is always such a one), so it chose a bitmap scan of every
 * row after the cursor and a top-N sort: each page cost what the rest of the timeline did (220 ms
 * per 1,000-row page of a 78,000-row task against 0.7 ms by the index), and a replay grew with the
 * square of its length. A function's `set` options hold for its own statements only.
 */
export class TimelineKeysetFunctions1795991900000 implements MigrationInterface {
  readonly name = 'TimelineKeysetFunctions1795991900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      create function timeline_rows_after(for_task_id text, after_seq bigint, row_limit integer)
        returns setof task_message language sql stable ${INDEX_ORDER_ONLY} as $$
          select * from task_message where task_id = for_task_id and seq > after_seq order by seq limit row_limit
        $$`);
    await queryRunner.query(`
      create function timeline_rows_before(for_task_id text, before_seq bigint, row_limit integer)
        returns setof task_message language sql stable ${INDEX_ORDER_ONLY} as $$
          select * from task_message where task_id = for_task_id and seq < before_seq order by seq desc limit row_limit
        $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('drop function timeline_rows_before(text, bigint, integer)');
    await queryRunner.query('drop function timeline_rows_after(text, bigint, integer)');
  }
}
