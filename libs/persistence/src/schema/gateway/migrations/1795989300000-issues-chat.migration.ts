import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The gateway's work intake (design §1, §8): issues (parent/child), their comments, chat sessions
 * and messages, and `task_trigger`, one row per trigger (assignment, mention, chat message) that
 * dedupes task creation: its key is unique, it is written in the same transaction as what
 * triggered it, and it keeps the enqueue request so a retry re-sends it with the same request id.
 */
export class IssuesChat1795989300000 implements MigrationInterface {
  readonly name = 'IssuesChat1795989300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      create table issue (
        id text primary key,
        workspace_id text not null references workspace (id),
        title text not null,
        description text not null default '',
        status text not null default 'todo' check (status in ('backlog', 'todo', 'in_progress', 'done', 'cancelled')),
        priority text not null default 'none' check (priority in ('none', 'low', 'medium', 'high', 'urgent')),
        assignee_agent_id text null,
        -- the trigger of the current assignment: a repeated PATCH with the same assignee re-sends it
        assignment_trigger_key text null,
        parent_issue_id text null references issue (id) on delete set null,
        project text null,
        idempotency_key text null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    await queryRunner.query(`create index issue_workspace_created on issue (workspace_id, created_at desc, id desc)`);
    await queryRunner.query(`create index issue_parent on issue (parent_issue_id) where parent_issue_id is not null`);
    await queryRunner.query(`create unique index issue_idempotency_key on issue (workspace_id, idempotency_key) where idempotency_key is not null`);
    await queryRunner.query(`
      create table issue_comment (
        id text primary key,
        issue_id text not null references issue (id) on delete cascade,
        workspace_id text not null references workspace (id),
        author_kind text not null,
        author_id text not null,
        body text not null,
        mentioned_agent_ids jsonb not null default '[]',
        idempotency_key text null,
        created_at timestamptz not null default now()
      )`);
    await queryRunner.query(`create index issue_comment_issue_created on issue_comment (issue_id, created_at, id)`);
    await queryRunner.query(`create unique index issue_comment_idempotency_key on issue_comment (issue_id, idempotency_key) where idempotency_key is not null`);
    await queryRunner.query(`
      create table chat_session (
        id text primary key,
        workspace_id text not null references workspace (id),
        agent_id text not null,
        title text not null default '',
        -- set by a "/new" message; the next message's task starts a fresh CLI session and clears it
        force_fresh_session boolean not null default false,
        created_at timestamptz not null default now()
      )`);
    await queryRunner.query(`create index chat_session_workspace_created on chat_session (workspace_id, created_at desc, id desc)`);
    await queryRunner.query(`
      create table chat_message (
        id text primary key,
        chat_session_id text not null references chat_session (id) on delete cascade,
        workspace_id text not null references workspace (id),
        role text not null check (role in ('user', 'agent')),
        body text not null,
        attachments jsonb not null default '[]',
        idempotency_key text null,
        created_at timestamptz not null default now()
      )`);
    await queryRunner.query(`create index chat_message_session_created on chat_message (chat_session_id, created_at, id)`);
    await queryRunner.query(`create unique index chat_message_idempotency_key on chat_message (chat_session_id, idempotency_key) where idempotency_key is not null`);
    await queryRunner.query(`
      create table task_trigger (
        trigger_key text primary key,
        workspace_id text not null references workspace (id),
        agent_id text not null,
        issue_id text null,
        chat_session_id text null,
        -- the queue request id: every (re-)send of this trigger uses it, so the queue creates one task
        request_id text not null unique,
        -- source, prompt, priority, forceFreshSession as decided when the trigger was written
        enqueue jsonb not null,
        task_id text null,
        created_at timestamptz not null default now(),
        enqueued_at timestamptz null
      )`);
    await queryRunner.query(`create index task_trigger_agent_issue on task_trigger (workspace_id, agent_id, issue_id, created_at) where issue_id is not null`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['task_trigger', 'chat_message', 'chat_session', 'issue_comment', 'issue']) await queryRunner.query(`drop table ${table}`);
  }
}
