import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7 } from '@switchyard/contracts';
import { DATA_SOURCE, findQueuedTaskById } from '@switchyard/persistence';
import type { RawQueryRunner } from '../database/returning-rows';
import { isoOf } from '../common/api-schemas';
import { CHILD_DONE_AUTHOR } from './child-done.note';

/** A finished task of an issue that has a parent. */
export interface ChildTask {
  readonly workspaceId: string;
  readonly child: { readonly id: string; readonly title: string };
  readonly parentIssueId: string;
}

export interface ChildDoneComment {
  readonly id: string;
  readonly body: string;
  readonly createdAt: string;
}

/** The reads and the note write of `child_done`; every query after the task lookup names the workspace. */
@Injectable()
export class ChildDoneRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** The task's issue and its parent, when the task belongs to a child issue (the queue's row names the workspace). */
  async childTask(taskId: string): Promise<ChildTask | undefined> {
    const task = await findQueuedTaskById(this.dataSource, taskId);
    if (!task?.issueId) return undefined;
    const [row] = await this.dataSource.query<Array<{ id: string; title: string; parent_issue_id: string }>>(
      `select id, title, parent_issue_id from issue where workspace_id = $1 and id = $2 and parent_issue_id is not null`,
      [task.workspaceId, task.issueId],
    );
    return row ? { workspaceId: task.workspaceId, child: { id: row.id, title: row.title }, parentIssueId: row.parent_issue_id } : undefined;
  }

  /**
   * Writes the note on the parent unless it exists: the key is the comment's idempotency key, whose
   * unique index makes a redelivered event find the note it wrote first.
   */
  async writeNote(runner: RawQueryRunner, options: { workspaceId: string; issueId: string; key: string; body: string }): Promise<ChildDoneComment> {
    await runner.query(
      `insert into issue_comment (id, issue_id, workspace_id, author_kind, author_id, body, mentioned_agent_ids, idempotency_key)
       values ($1, $2, $3, $4, $5, $6, '[]'::jsonb, $7)
       on conflict (issue_id, idempotency_key) where idempotency_key is not null do nothing`,
      [uuidv7(), options.issueId, options.workspaceId, CHILD_DONE_AUTHOR.kind, CHILD_DONE_AUTHOR.id, options.body, options.key],
    );
    const [row] = await runner.query<Array<{ id: string; body: string; created_at: Date }>>(
      `select id, body, created_at from issue_comment where workspace_id = $1 and issue_id = $2 and idempotency_key = $3`,
      [options.workspaceId, options.issueId, options.key],
    );
    if (!row) throw new Error(`child_done note ${options.key} is not readable after its insert`);
    return { id: row.id, body: row.body, createdAt: isoOf(row.created_at) };
  }
}
