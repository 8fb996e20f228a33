import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tables later features build on. Plain Postgres that PGlite accepts too (no extensions):
 * - consumer_checkpoint: a projector's JetStream position, committed with its rows.
 * - processed_command: the reply to each request id, for idempotent command handling.
 * - outbox_event: append-only events with unique(aggregate_id, version), relayed to JetStream.
 */
export class FoundationTables1795988600000 implements MigrationInterface {
  readonly name = 'FoundationTables1795988600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      create table consumer_checkpoint (
        consumer_name text primary key,
        stream_sequence bigint not null,
        updated_at timestamptz not null default now()
      )`);
    await queryRunner.query(`
      create table processed_command (
        request_id text primary key,
        command_type text not null,
        reply jsonb not null,
        created_at timestamptz not null default now()
      )`);
    await queryRunner.query(`
      create table outbox_event (
        id uuid primary key,
        aggregate_id text not null,
        version integer not null,
        type text not null,
        subject text not null,
        payload jsonb not null,
        headers jsonb not null default '{}'::jsonb,
        occurred_at timestamptz not null,
        published_at timestamptz null,
        constraint outbox_event_aggregate_version_unique unique (aggregate_id, version)
      )`);
    // The relay scans only what is still unpublished, in per-aggregate order.
    await queryRunner.query(`
      create index outbox_event_unpublished_index
        on outbox_event (aggregate_id, version) where published_at is null`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('drop table outbox_event');
    await queryRunner.query('drop table processed_command');
    await queryRunner.query('drop table consumer_checkpoint');
  }
}
