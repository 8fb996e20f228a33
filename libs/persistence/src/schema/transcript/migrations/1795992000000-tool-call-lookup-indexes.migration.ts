import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 23: the projector pairs tool results with their calls by `(task_id, call_id)`, which no
 * index served. A result stored without its tool name (Claude Code's never carry one) looked its
 * call up with a scan of the whole table, and every batch with tool calls named the results still
 * unnamed with another such scan: each batch cost what the table held (95 ms and 14 ms on 80,000
 * rows against 0.2 and 0.5 ms by these indexes), and ingest slowed as timelines grew. Both are
 * partial, so only tool calls and the few unnamed results are indexed.
 */
export class ToolCallLookupIndexes1795992000000 implements MigrationInterface {
  readonly name = 'ToolCallLookupIndexes1795992000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`create index task_message_tool_call on task_message (task_id, call_id, seq) where type = 'tool_use'`);
    await queryRunner.query(`create index task_message_unnamed_tool_result on task_message (task_id, call_id) where type = 'tool_result' and tool is null`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('drop index task_message_unnamed_tool_result');
    await queryRunner.query('drop index task_message_tool_call');
  }
}
