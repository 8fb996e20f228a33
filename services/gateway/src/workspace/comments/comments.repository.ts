import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7, type Actor } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { RawQueryRunner } from '../database/returning-rows';
import { isoOf } from '../common/api-schemas';
import type { CommentView } from './comment.schemas';

interface CommentRow {
  id: string;
  issue_id: string;
  author_kind: Actor['kind'];
  author_id: string;
  body: string;
  mentioned_agent_ids: string[];
  created_at: Date;
}

const COLUMNS = 'id, issue_id, author_kind, author_id, body, mentioned_agent_ids, created_at';

function viewOf(row: CommentRow): CommentView {
  return {
    id: row.id,
    issueId: row.issue_id,
    author: { kind: row.author_kind, id: row.author_id },
    body: row.body,
    mentionedAgentIds: row.mentioned_agent_ids,
    createdAt: isoOf(row.created_at),
  };
}

/** Comments of issues; every query names the workspace. */
@Injectable()
export class CommentsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async list(workspaceId: string, issueId: string): Promise<CommentView[]> {
    const rows = await this.dataSource.query<CommentRow[]>(
      `select ${COLUMNS} from issue_comment where workspace_id = $1 and issue_id = $2 order by created_at, id limit 1000`,
      [workspaceId, issueId],
    );
    return rows.map(viewOf);
  }

  async findByIdempotencyKey(workspaceId: string, issueId: string, key: string): Promise<CommentView | undefined> {
    const [row] = await this.dataSource.query<CommentRow[]>(
      `select ${COLUMNS} from issue_comment where workspace_id = $1 and issue_id = $2 and idempotency_key = $3`,
      [workspaceId, issueId, key],
    );
    return row ? viewOf(row) : undefined;
  }

  /** Whether the task's agent already commented on the issue in that run (with its task token, or a result written back). */
  async hasAgentCommentOfTask(runner: RawQueryRunner, options: { workspaceId: string; issueId: string; taskId: string }): Promise<boolean> {
    const rows = await runner.query<unknown[]>(`select 1 from issue_comment where workspace_id = $1 and issue_id = $2 and task_id = $3 and author_kind = 'agent' limit 1`, [
      options.workspaceId,
      options.issueId,
      options.taskId,
    ]);
    return rows.length > 0;
  }

  async insert(
    runner: RawQueryRunner,
    options: {
      workspaceId: string;
      issueId: string;
      author: Actor;
      body: string;
      mentionedAgentIds: readonly string[];
      idempotencyKey: string | undefined;
      /** The run the comment belongs to: an agent's own comment, or a result written back for it. */
      taskId?: string | null;
    },
  ): Promise<CommentView> {
    const [row] = await runner.query<CommentRow[]>(
      `insert into issue_comment (id, issue_id, workspace_id, author_kind, author_id, body, mentioned_agent_ids, idempotency_key, task_id)
       values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9) returning ${COLUMNS}`,
      [
        uuidv7(),
        options.issueId,
        options.workspaceId,
        options.author.kind,
        options.author.id,
        options.body,
        JSON.stringify(options.mentionedAgentIds),
        options.idempotencyKey ?? null,
        options.taskId ?? null,
      ],
    );
    if (!row) throw new Error('insert into issue_comment returned no row');
    return viewOf(row);
  }
}
