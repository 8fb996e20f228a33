import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The gateway's workspace domain (design §8): workspaces, hashed API tokens, agents, runtime
 * profiles, and the runtimes view projected from runtime events. The protocol families listed in
 * the profile constraint are the contracts' `PROTOCOL_FAMILIES` as of this migration; a test holds
 * the two equal, and a later family is added by a new migration that replaces the constraint.
 */
export class GatewayDomain1795989000000 implements MigrationInterface {
  readonly name = 'GatewayDomain1795989000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      create table workspace (
        id text primary key,
        name text not null,
        created_at timestamptz not null default now()
      )`);
    await queryRunner.query(`
      create table api_token (
        id text primary key,
        workspace_id text not null references workspace (id),
        name text not null,
        token_hash text not null unique,
        created_at timestamptz not null default now(),
        last_used_at timestamptz null,
        revoked_at timestamptz null
      )`);
    await queryRunner.query(`
      create table runtime_profile (
        id text primary key,
        workspace_id text not null references workspace (id),
        display_name text not null,
        protocol_family text not null constraint runtime_profile_protocol_family_check check (protocol_family in (
          'claude-stream-json', 'codex-app-server', 'acp', 'opencode-ndjson', 'pi-json',
          'copilot-jsonl', 'openclaw-jsonl', 'dsh-jsonl', 'antigravity-json')),
        command_name text not null,
        description text null,
        fixed_args jsonb not null default '[]',
        enabled boolean not null default true,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (workspace_id, display_name)
      )`);
    await queryRunner.query(`
      create table agent (
        id text primary key,
        workspace_id text not null references workspace (id),
        name text not null,
        instructions text not null default '',
        runtime_id text not null,
        model text null,
        thinking_level text null,
        env jsonb not null default '{}',
        extra_args jsonb not null default '[]',
        mcp_servers jsonb not null default '{}',
        skills jsonb not null default '[]',
        max_concurrent_tasks integer not null default 1 check (max_concurrent_tasks > 0),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        archived_at timestamptz null
      )`);
    await queryRunner.query(`create unique index agent_name_per_workspace on agent (workspace_id, name) where archived_at is null`);
    await queryRunner.query(`
      create table runtime_view (
        runtime_id text primary key,
        workspace_id text not null,
        daemon_id text not null,
        identity text not null,
        provider text null,
        version text not null,
        protocol_family text not null,
        command_name text not null,
        profile_id text null,
        capacity integer not null,
        status text not null check (status in ('online', 'offline')),
        registered_at timestamptz not null,
        last_heartbeat_at timestamptz null,
        offline_since timestamptz null,
        offline_reason text null
      )`);
    await queryRunner.query(`create index runtime_view_workspace on runtime_view (workspace_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['runtime_view', 'agent', 'runtime_profile', 'api_token', 'workspace']) await queryRunner.query(`drop table ${table}`);
  }
}
