import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The lease token of each task's current attempt: only its SHA-256 (hex) at rest, written by the
 * claim, compared on every start, renew, complete and fail. Null until the task is first claimed.
 */
export class AttemptLeaseToken1795989900000 implements MigrationInterface {
  readonly name = 'AttemptLeaseToken1795989900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('alter table agent_task_queue add column lease_token_hash text null');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('alter table agent_task_queue drop column lease_token_hash');
  }
}
