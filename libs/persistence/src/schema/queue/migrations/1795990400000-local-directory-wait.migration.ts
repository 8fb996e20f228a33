import type { MigrationInterface, QueryRunner } from 'typeorm';

const STATES_BEFORE = `'queued', 'deferred', 'dispatched', 'running', 'completed', 'failed', 'cancelled'`;
const STATES_AFTER = `'queued', 'deferred', 'dispatched', 'waiting_local_directory', 'running', 'completed', 'failed', 'cancelled'`;

/** The partial indexes over live attempts, by the states that make an attempt live. */
function liveAttemptIndexes(liveStates: string): string[] {
  return [
    `create index agent_task_queue_active_agent_index on agent_task_queue (agent_id) where status in (${liveStates})`,
    `create unique index agent_task_queue_one_active_per_agent_issue
       on agent_task_queue (agent_id, issue_id) where status in (${liveStates}) and issue_id is not null`,
    `create unique index agent_task_queue_one_active_per_chat_session
       on agent_task_queue (chat_session_id) where status in (${liveStates}) and chat_session_id is not null`,
    `create index agent_task_queue_deadline_index on agent_task_queue (status, start_by, lease_expires_at) where status in (${liveStates})`,
  ];
}

const LIVE_ATTEMPT_INDEX_NAMES = [
  'agent_task_queue_active_agent_index',
  'agent_task_queue_one_active_per_agent_issue',
  'agent_task_queue_one_active_per_chat_session',
  'agent_task_queue_deadline_index',
];

/**
 * Issue 18: a claimed attempt may wait for its local directory (`waiting_local_directory`), still
 * live: it holds its agent's slot and its (agent, issue) or chat session like `dispatched`, so the
 * serializing unique indexes cover it. `repositories`: what the latest attempt that reported any
 * left in each repository (`RepositoryWorkResult[]`), for the gateway's task reads.
 */
export class LocalDirectoryWait1795990400000 implements MigrationInterface {
  readonly name = 'LocalDirectoryWait1795990400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.replaceStates(queryRunner, STATES_AFTER, `'dispatched', 'waiting_local_directory', 'running'`);
    await queryRunner.query(`alter table agent_task_queue add column repositories jsonb not null default '[]'::jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('alter table agent_task_queue drop column repositories');
    // A waiting attempt was claimed and not started: as far as the old states know, dispatched.
    await queryRunner.query(`update agent_task_queue set status = 'dispatched' where status = 'waiting_local_directory'`);
    await this.replaceStates(queryRunner, STATES_BEFORE, `'dispatched', 'running'`);
  }

  private async replaceStates(queryRunner: QueryRunner, states: string, liveStates: string): Promise<void> {
    await queryRunner.query('alter table agent_task_queue drop constraint agent_task_queue_status_check');
    await queryRunner.query(`alter table agent_task_queue add constraint agent_task_queue_status_check check (status in (${states}))`);
    for (const name of LIVE_ATTEMPT_INDEX_NAMES) await queryRunner.query(`drop index ${name}`);
    for (const statement of liveAttemptIndexes(liveStates)) await queryRunner.query(statement);
  }
}
