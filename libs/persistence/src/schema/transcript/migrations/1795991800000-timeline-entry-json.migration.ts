import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 23: each `task_message` row also keeps its API form, the `TimelineEntry` JSON text the
 * projector wrote (already redacted), so a REST page is the stored texts joined, with no per-row
 * parse or re-serialize. Null for rows written before: the reader builds those from the columns,
 * as it did before, so no backfill rewrites the table.
 */
export class TimelineEntryJson1795991800000 implements MigrationInterface {
  readonly name = 'TimelineEntryJson1795991800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('alter table task_message add column entry_json text null');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('alter table task_message drop column entry_json');
  }
}
