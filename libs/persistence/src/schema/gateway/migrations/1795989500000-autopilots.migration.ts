import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Autopilots (design §1, §8): a workspace's standing instruction to an agent, fired by a cron
 * schedule (UTC), a webhook or by hand. Each firing is a `task_trigger` row keyed
 * `autopilot:<id>:<trigger>:<minute or key>`, so one scheduled minute makes one task however many
 * gateway replicas tick. The webhook secret is stored as its SHA-256 only.
 */
export class Autopilots1795989500000 implements MigrationInterface {
  readonly name = 'Autopilots1795989500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      create table autopilot (
        id text primary key,
        workspace_id text not null references workspace (id),
        name text not null,
        agent_id text not null,
        instructions text not null,
        mode text not null check (mode in ('run_only', 'create_issue')),
        -- 5-field cron, UTC; null: fired only by webhook or by hand
        schedule text null,
        enabled boolean not null default true,
        webhook_secret_hash text not null,
        -- due minutes count after this one: set when the schedule is created, changed or re-enabled
        schedule_since timestamptz not null default now(),
        last_fired_minute timestamptz null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    await queryRunner.query(`create unique index autopilot_workspace_name on autopilot (workspace_id, name)`);
    await queryRunner.query(`create index autopilot_workspace_created on autopilot (workspace_id, created_at desc, id desc)`);
    await queryRunner.query(`create index autopilot_scheduled on autopilot (id) where enabled and schedule is not null`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`drop table autopilot`);
  }
}
