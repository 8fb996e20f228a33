import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An issue whose agent finished its run waits for a person: `in_review`, between `in_progress`
 * and `done`. The gateway moves an issue there when one of its tasks completes.
 */
export class IssueInReview1795990250000 implements MigrationInterface {
  readonly name = 'IssueInReview1795990250000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('alter table issue drop constraint issue_status_check');
    await queryRunner.query(`alter table issue add constraint issue_status_check check (status in ('backlog', 'todo', 'in_progress', 'in_review', 'done', 'cancelled'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`update issue set status = 'in_progress' where status = 'in_review'`);
    await queryRunner.query('alter table issue drop constraint issue_status_check');
    await queryRunner.query(`alter table issue add constraint issue_status_check check (status in ('backlog', 'todo', 'in_progress', 'done', 'cancelled'))`);
  }
}
