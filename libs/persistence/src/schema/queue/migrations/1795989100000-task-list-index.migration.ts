import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The gateway lists a workspace's tasks newest first, paged by (enqueued_at, task_id). */
export class TaskListIndex1795989100000 implements MigrationInterface {
  readonly name = 'TaskListIndex1795989100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('create index agent_task_queue_workspace_list on agent_task_queue (workspace_id, enqueued_at desc, task_id desc)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('drop index agent_task_queue_workspace_list');
  }
}
