import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A comment an agent posted with its task token names that task: the run's result is written back
 * as a comment only when the agent did not already comment in that run.
 */
export class CommentTask1795990200000 implements MigrationInterface {
  readonly name = 'CommentTask1795990200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('alter table issue_comment add column task_id text null');
    await queryRunner.query('create index issue_comment_task on issue_comment (task_id) where task_id is not null');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('drop index issue_comment_task');
    await queryRunner.query('alter table issue_comment drop column task_id');
  }
}
