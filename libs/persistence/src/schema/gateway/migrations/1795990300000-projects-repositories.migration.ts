import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Workspace secrets (each value sealed with `GATEWAY_SECRET_KEYS`), projects, and the git
 * repositories of a project. A repository's name is unique per workspace: it names the folder of
 * every work dir and `yard repo checkout <name>`. A credential names its secret by name (names
 * never change); a secret or project still referenced cannot be deleted (`on delete restrict`),
 * and the composite keys keep every reference inside its workspace.
 */
export class ProjectsRepositories1795990300000 implements MigrationInterface {
  readonly name = 'ProjectsRepositories1795990300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      create table workspace_secret (
        id text primary key,
        workspace_id text not null references workspace (id),
        name text not null,
        description text null,
        sealed_value text not null,
        value_set_at timestamptz not null default now(),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        constraint workspace_secret_name_per_workspace unique (workspace_id, name),
        unique (workspace_id, id)
      )`);
    await queryRunner.query(`
      create table project (
        id text primary key,
        workspace_id text not null references workspace (id),
        name text not null,
        description text null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        constraint project_name_per_workspace unique (workspace_id, name),
        unique (workspace_id, id)
      )`);
    await queryRunner.query(`
      create table project_repository (
        id text primary key,
        workspace_id text not null,
        project_id text not null,
        name text not null,
        checkout_mode text not null check (checkout_mode in ('worktree', 'local_directory')),
        url text null,
        local_path text null,
        default_branch text not null,
        branch_template text not null,
        credential_username text null,
        credential_secret_name text null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        constraint project_repository_name_per_workspace unique (workspace_id, name),
        constraint project_repository_project foreign key (workspace_id, project_id) references project (workspace_id, id) on delete restrict,
        constraint project_repository_secret foreign key (workspace_id, credential_secret_name) references workspace_secret (workspace_id, name) on delete restrict,
        constraint project_repository_location check (
          (checkout_mode = 'worktree' and url is not null and local_path is null)
          or (checkout_mode = 'local_directory' and local_path is not null and url is null and credential_secret_name is null)
        ),
        constraint project_repository_credential check ((credential_username is null) = (credential_secret_name is null))
      )`);
    await queryRunner.query('create index project_repository_by_project on project_repository (workspace_id, project_id, name)');
    await queryRunner.query('create index project_repository_by_secret on project_repository (workspace_id, credential_secret_name) where credential_secret_name is not null');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('drop table project_repository');
    await queryRunner.query('drop table project');
    await queryRunner.query('drop table workspace_secret');
  }
}
