import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The workspace skill store: a skill names its current version; versions are immutable rows
 * (an update adds one), each with the files it ships and the sha256 of their canonical listing.
 */
export class Skills1795990100000 implements MigrationInterface {
  readonly name = 'Skills1795990100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      create table skill (
        id text primary key,
        workspace_id text not null references workspace (id),
        name text not null,
        description text null,
        current_version integer not null check (current_version > 0),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (workspace_id, name)
      )`);
    await queryRunner.query(`
      create table skill_version (
        skill_id text not null references skill (id) on delete cascade,
        version integer not null check (version > 0),
        content_hash text not null check (content_hash ~ '^[0-9a-f]{64}$'),
        description text null,
        files jsonb not null,
        file_count integer not null,
        size_bytes integer not null,
        created_at timestamptz not null default now(),
        primary key (skill_id, version)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('drop table skill_version');
    await queryRunner.query('drop table skill');
  }
}
