import type { MigrationInterface, QueryRunner } from 'typeorm';

const TYPES_BEFORE = `'text', 'thinking', 'tool_use', 'tool_result', 'error'`;
const TYPES_AFTER = `'text', 'thinking', 'tool_use', 'tool_result', 'error', 'notice'`;

/**
 * Issue 18: the daemon's own word in a task's timeline, a `notice` row (a repository's branch and
 * diff at the end of a run): its sentence in `content`, its snake_case code in `notice_code`.
 */
export class TimelineNotice1795990800000 implements MigrationInterface {
  readonly name = 'TimelineNotice1795990800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.replaceTypes(queryRunner, TYPES_AFTER);
    await queryRunner.query('alter table task_message add column notice_code text null');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The old rows have no place for a notice; the stream still holds the events for a rebuild.
    await queryRunner.query(`delete from task_message where type = 'notice'`);
    await queryRunner.query('alter table task_message drop column notice_code');
    await this.replaceTypes(queryRunner, TYPES_BEFORE);
  }

  private async replaceTypes(queryRunner: QueryRunner, types: string): Promise<void> {
    await queryRunner.query('alter table task_message drop constraint task_message_type_check');
    await queryRunner.query(`alter table task_message add constraint task_message_type_check check (type in (${types}))`);
  }
}
