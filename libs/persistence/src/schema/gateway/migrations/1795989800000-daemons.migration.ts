import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Daemons enrolled into a workspace, and the one-time tokens they enroll with. Only hashes of the
 * tokens are kept; a daemon is known by the public keys it sent, never a seed.
 */
export class Daemons1795989800000 implements MigrationInterface {
  readonly name = 'Daemons1795989800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      create table daemon_enrollment (
        id uuid primary key,
        workspace_id text not null references workspace (id),
        token_hash text not null unique,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        used_at timestamptz,
        daemon_id text
      )`);
    await queryRunner.query(`
      create table enrolled_daemon (
        id text primary key,
        workspace_id text not null references workspace (id),
        name text not null,
        user_public_key text not null unique,
        curve_public_key text not null,
        enrolled_at timestamptz not null default now(),
        revoked_at timestamptz
      )`);
    await queryRunner.query('create index enrolled_daemon_workspace_idx on enrolled_daemon (workspace_id, enrolled_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('drop table enrolled_daemon');
    await queryRunner.query('drop table daemon_enrollment');
  }
}
