import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The session-resume service's index, projected from TASK_EVENTS and SESSION_EVENTS:
 * - session_resume_task: one row per task, its folded facts in `entry` (key, runtime, work dir,
 *   session, outcome); the conversation's latest task that ran is found by (resume_key, enqueued_at).
 * - session_resume_retired: sessions that may never be resumed, by session id (a retirement may
 *   arrive before the task that names the session).
 */
export class SessionResumeIndex1795989200000 implements MigrationInterface {
  readonly name = 'SessionResumeIndex1795989200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      create table session_resume_task (
        task_id text primary key,
        resume_key text null,
        enqueued_at timestamptz null,
        has_run boolean not null default false,
        entry jsonb not null,
        updated_at timestamptz not null default now()
      )`);
    await queryRunner.query(`
      create index session_resume_task_latest on session_resume_task (resume_key, enqueued_at desc, task_id desc)
      where resume_key is not null and has_run`);
    await queryRunner.query(`
      create table session_resume_retired (
        session_id text primary key,
        task_id text null,
        reason text not null,
        retired_at timestamptz not null
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('drop table session_resume_retired');
    await queryRunner.query('drop table session_resume_task');
  }
}
