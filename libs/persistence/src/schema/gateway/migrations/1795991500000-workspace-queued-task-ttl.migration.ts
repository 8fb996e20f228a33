import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Queue ageing: a workspace's default TTL for its queued tasks, in seconds; null, the default,
 * keeps them queued until claimed. The bounds are `QUEUED_TASK_TTL_SECONDS` (1 min .. 30 days).
 */
export class WorkspaceQueuedTaskTtl1795991500000 implements MigrationInterface {
  readonly name = 'WorkspaceQueuedTaskTtl1795991500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'alter table workspace add column queued_task_ttl_seconds integer null constraint workspace_queued_task_ttl_check check (queued_task_ttl_seconds between 60 and 2592000)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('alter table workspace drop column queued_task_ttl_seconds');
  }
}
