import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The account every API token made before people existed now belongs to (issue 20); see below. */
export const FIRST_OWNER_USER_ID = 'user-first-owner';
export const FIRST_OWNER_EMAIL = 'owner@switchyard.local';

/**
 * Issue 20, people:
 * - `app_user`: a person (email, argon2id password hash or none: a one-time link or OIDC signs them in);
 * - `user_identity`: an external identity (OIDC issuer + subject) linked to a user;
 * - `user_session`: a browser session (cookie), stored as hashes of its secret and CSRF token;
 * - `workspace_member`: a user's role in a workspace (`owner`, `admin`, `member`, `viewer`);
 * - `workspace_invitation`: a one-time link that makes whoever accepts it a member with a role;
 * - `user_one_time_code`: a password-reset code or a sign-in link, printed by an admin command;
 * - `audit_event`: who did what to members, roles, tokens, secrets and daemons;
 * - `api_token` gains its user, its scopes (null: all its holder's role allows), an expiry.
 * Existing tokens keep working: they become tokens of one created owner account, owner of every
 * workspace that had tokens (it has no password: an admin command prints it a sign-in link).
 */
export class People1795991700000 implements MigrationInterface {
  readonly name = 'People1795991700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      create table app_user (
        id text primary key,
        email text not null,
        display_name text not null,
        password_hash text null,
        password_set_at timestamptz null,
        created_at timestamptz not null default now(),
        disabled_at timestamptz null,
        constraint app_user_email_lowercase check (email = lower(email)),
        constraint app_user_email_unique unique (email)
      )`);
    await queryRunner.query(`
      create table user_identity (
        issuer text not null,
        subject text not null,
        user_id text not null references app_user (id),
        created_at timestamptz not null default now(),
        primary key (issuer, subject)
      )`);
    await queryRunner.query(`
      create table user_session (
        id text primary key,
        user_id text not null references app_user (id),
        token_hash text not null unique,
        csrf_hash text not null,
        created_at timestamptz not null default now(),
        last_seen_at timestamptz not null default now(),
        expires_at timestamptz not null,
        revoked_at timestamptz null
      )`);
    await queryRunner.query('create index user_session_user_index on user_session (user_id)');
    await queryRunner.query(`
      create table workspace_member (
        workspace_id text not null references workspace (id),
        user_id text not null references app_user (id),
        role text not null constraint workspace_member_role_check check (role in ('owner', 'admin', 'member', 'viewer')),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        primary key (workspace_id, user_id)
      )`);
    await queryRunner.query('create index workspace_member_user_index on workspace_member (user_id)');
    await queryRunner.query(`
      create table workspace_invitation (
        id text primary key,
        workspace_id text not null references workspace (id),
        role text not null constraint workspace_invitation_role_check check (role in ('admin', 'member', 'viewer')),
        email text null,
        token_hash text not null unique,
        created_by text not null references app_user (id),
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        accepted_at timestamptz null,
        accepted_by text null references app_user (id),
        revoked_at timestamptz null
      )`);
    await queryRunner.query(`
      create table user_one_time_code (
        id text primary key,
        user_id text not null references app_user (id),
        purpose text not null constraint user_one_time_code_purpose_check check (purpose in ('password_reset', 'sign_in')),
        code_hash text not null unique,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        used_at timestamptz null
      )`);
    await queryRunner.query(`
      create table audit_event (
        id text primary key,
        workspace_id text null,
        occurred_at timestamptz not null default now(),
        actor_kind text not null,
        actor_id text not null,
        action text not null,
        target_kind text not null,
        target_id text not null,
        details jsonb not null default '{}'::jsonb
      )`);
    await queryRunner.query('create index audit_event_workspace_index on audit_event (workspace_id, occurred_at desc, id desc)');
    await queryRunner.query(`alter table api_token add column user_id text null references app_user (id),
                               add column scopes text[] null,
                               add column expires_at timestamptz null`);
    await this.adoptExistingTokens(queryRunner);
    await queryRunner.query('alter table api_token alter column user_id set not null');
  }

  private async adoptExistingTokens(queryRunner: QueryRunner): Promise<void> {
    const [tokens] = (await queryRunner.query('select count(*)::int as count from api_token')) as Array<{ count: number }>;
    if (!tokens || tokens.count === 0) return;
    await queryRunner.query(`insert into app_user (id, email, display_name) values ($1, $2, 'First owner')`, [FIRST_OWNER_USER_ID, FIRST_OWNER_EMAIL]);
    await queryRunner.query(`insert into workspace_member (workspace_id, user_id, role) select distinct workspace_id, $1, 'owner' from api_token`, [FIRST_OWNER_USER_ID]);
    await queryRunner.query('update api_token set user_id = $1', [FIRST_OWNER_USER_ID]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('alter table api_token drop column user_id, drop column scopes, drop column expires_at');
    for (const table of ['audit_event', 'user_one_time_code', 'workspace_invitation', 'workspace_member', 'user_session', 'user_identity', 'app_user']) {
      await queryRunner.query(`drop table ${table}`);
    }
  }
}
