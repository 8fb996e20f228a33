import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Task-scoped tokens (design §9): one per claimed attempt, only its SHA-256 at rest, expiring,
 * revoked when the task ends. Agents present the token when they call back.
 */
export class TaskToken1795988800000 implements MigrationInterface {
  readonly name = 'TaskToken1795988800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      create table task_token (
        task_id text not null,
        attempt integer not null,
        token_hash text not null unique,
        issued_at timestamptz not null,
        expires_at timestamptz not null,
        revoked_at timestamptz null,
        primary key (task_id, attempt)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('drop table task_token');
  }
}
