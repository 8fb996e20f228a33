import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The timeline view (design §6), built by the transcript projector from `task.message` events:
 * one row per shown message, unique per (task, seq) so redelivery and replay never duplicate.
 * Every column comes from the event itself (its id, its occurred-at), so a rebuild from the stream
 * reproduces the rows exactly. `task_usage` keeps the latest token totals per run and model.
 */
export class TaskTimeline1795988900000 implements MigrationInterface {
  readonly name = 'TaskTimeline1795988900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      create table task_message (
        id uuid primary key,
        task_id text not null,
        seq integer not null check (seq >= 0),
        attempt integer not null,
        type text not null check (type in ('text', 'thinking', 'tool_use', 'tool_result', 'error')),
        tool text null,
        call_id text null,
        content text null,
        input jsonb null,
        output text null,
        output_truncated boolean not null default false,
        tool_status text null check (tool_status in ('ok', 'error')),
        error_code text null,
        created_at timestamptz not null,
        unique (task_id, seq)
      )`);
    await queryRunner.query(`
      create table task_usage (
        task_id text not null,
        attempt integer not null,
        provider text not null,
        model text not null,
        input_tokens bigint not null,
        output_tokens bigint not null,
        cache_read_tokens bigint not null default 0,
        cache_write_tokens bigint not null default 0,
        reported_seq integer not null,
        primary key (task_id, attempt, provider, model)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('drop table task_usage');
    await queryRunner.query('drop table task_message');
  }
}
