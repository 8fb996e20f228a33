import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The queue service's views, written in the same transaction as the task events:
 * - agent_task_queue: one row per task, the current state the claim query reads.
 * - agent_limit: each agent's maxConcurrentTasks as last enqueued (the gateway owns agents).
 * - runtime_presence: last heartbeat of each runtime, for the sweeper.
 */
export class TaskQueue1795988700000 implements MigrationInterface {
  readonly name = 'TaskQueue1795988700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      create table agent_task_queue (
        task_id text primary key,
        workspace_id text not null,
        agent_id text not null,
        runtime_id text not null,
        source_kind text not null,
        issue_id text null,
        chat_session_id text null,
        priority integer not null,
        status text not null check (status in ('queued', 'deferred', 'dispatched', 'running', 'completed', 'failed', 'cancelled')),
        attempt integer not null,
        max_attempts integer not null,
        enqueued_at timestamptz not null,
        fire_at timestamptz null,
        expires_at timestamptz null,
        daemon_id text null,
        start_by timestamptz null,
        lease_expires_at timestamptz null,
        cancel_requested boolean not null default false,
        failure_reason text null,
        terminal_at timestamptz null,
        retry_of_task_id text null,
        version integer not null,
        updated_at timestamptz not null default now()
      )`);
    // The claim scan: queued (and due deferred) work of a runtime, highest priority first, FIFO within a priority.
    await queryRunner.query(`
      create index agent_task_queue_claim_index
        on agent_task_queue (runtime_id, priority desc, enqueued_at, task_id) where status in ('queued', 'deferred')`);
    await queryRunner.query(`
      create index agent_task_queue_active_agent_index
        on agent_task_queue (agent_id) where status in ('dispatched', 'running')`);
    // Serialization as constraints, so racing claimers cannot both win: one active task per
    // (agent, issue) and one per chat session.
    await queryRunner.query(`
      create unique index agent_task_queue_one_active_per_agent_issue
        on agent_task_queue (agent_id, issue_id) where status in ('dispatched', 'running') and issue_id is not null`);
    await queryRunner.query(`
      create unique index agent_task_queue_one_active_per_chat_session
        on agent_task_queue (chat_session_id) where status in ('dispatched', 'running') and chat_session_id is not null`);
    await queryRunner.query(`
      create index agent_task_queue_deadline_index
        on agent_task_queue (status, start_by, lease_expires_at) where status in ('dispatched', 'running')`);
    await queryRunner.query(`
      create table agent_limit (
        agent_id text primary key,
        max_concurrent_tasks integer not null check (max_concurrent_tasks > 0),
        updated_at timestamptz not null default now()
      )`);
    await queryRunner.query(`
      create table runtime_presence (
        runtime_id text primary key,
        daemon_id text not null,
        last_heartbeat_at timestamptz not null,
        offline_since timestamptz null
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('drop table runtime_presence');
    await queryRunner.query('drop table agent_limit');
    await queryRunner.query('drop table agent_task_queue');
  }
}
