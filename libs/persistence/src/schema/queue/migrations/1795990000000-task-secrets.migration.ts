import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * - task_secret_bundle: the secret values an enqueued agent snapshot referenced, sealed at rest
 *   (`QUEUE_SECRET_KEYS`); events name the bundle, never a value. A retry shares its first run's.
 * - daemon_sealing_key: the curve key each daemon id first claimed with; claim replies seal the
 *   secrets to it, and a claim naming another key is refused.
 */
export class TaskSecrets1795990000000 implements MigrationInterface {
  readonly name = 'TaskSecrets1795990000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      create table task_secret_bundle (
        bundle_id text primary key,
        sealed text not null,
        created_at timestamptz not null default now()
      )`);
    await queryRunner.query(`
      create table daemon_sealing_key (
        daemon_id text primary key,
        public_key text not null,
        first_claimed_at timestamptz not null default now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('drop table daemon_sealing_key');
    await queryRunner.query('drop table task_secret_bundle');
  }
}
