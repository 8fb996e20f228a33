import { Injectable } from '@nestjs/common';
import type { RawQueryRunner } from '../database/returning-rows';
import { isoOf } from '../common/api-schemas';
import { taskPriorityOfIssue } from './issue.schemas';
import type { IssueRecord } from './issues.repository';
import { buildIssuePrompt, PROMPT_MAX_COMMENTS, type PromptComment } from './issue-prompt.builder';
import { TaskTriggersRepository, type TaskTriggerRecord } from '../triggers/task-triggers.repository';

export type IssueTrigger = { readonly kind: 'assignment' } | { readonly kind: 'mention'; readonly comment: PromptComment };

interface CommentRow {
  id: string;
  author_kind: string;
  author_id: string;
  body: string;
  created_at: Date;
}

export const authorOf = (kind: string, id: string): string => `${kind}:${id}`;

/** The trigger key of an assignment is minted per assignment; a mention's is (comment, agent). */
export const mentionTriggerKey = (commentId: string, agentId: string): string => `mention:${commentId}:${agentId}`;
export const mentionTriggerPrefix = (commentId: string): string => `mention:${commentId}:`;

/**
 * Writes the trigger of an issue task inside the request's transaction: the prompt is built now,
 * from the issue and its comments as this transaction sees them, and kept with the trigger, so a
 * re-send after a failed enqueue sends the very same request.
 */
@Injectable()
export class IssueTriggerWriter {
  constructor(private readonly triggers: TaskTriggersRepository) {}

  async write(
    runner: RawQueryRunner,
    options: { readonly workspaceId: string; readonly issue: IssueRecord; readonly agentId: string; readonly triggerKey: string; readonly trigger: IssueTrigger },
  ): Promise<TaskTriggerRecord> {
    const { workspaceId, issue, agentId, trigger } = options;
    const [existing] = await this.triggers.find(runner, workspaceId, [options.triggerKey]);
    if (existing) return existing;
    const since = await this.triggers.lastIssueTriggerAt(runner, { workspaceId, agentId, issueId: issue.id });
    const triggerCommentId = trigger.kind === 'mention' ? trigger.comment.id : null;
    const rows = await runner.query<CommentRow[]>(
      `select id, author_kind, author_id, body, created_at from issue_comment
        where workspace_id = $1 and issue_id = $2 and ($3::timestamptz is null or created_at > $3) and ($4::text is null or id <> $4)
        order by created_at desc, id desc limit $5`,
      [workspaceId, issue.id, since, triggerCommentId, PROMPT_MAX_COMMENTS + 1],
    );
    const [counted] = await runner.query<Array<{ count: number }>>(
      `select count(*)::int as count from issue_comment
        where workspace_id = $1 and issue_id = $2 and ($3::timestamptz is null or created_at > $3) and ($4::text is null or id <> $4)`,
      [workspaceId, issue.id, since, triggerCommentId],
    );
    const comments = rows
      .slice(0, PROMPT_MAX_COMMENTS)
      .reverse()
      .map((row) => ({ id: row.id, author: authorOf(row.author_kind, row.author_id), body: row.body, createdAt: isoOf(row.created_at) }));
    const [parent] = issue.parentIssueId
      ? await runner.query<Array<{ id: string; title: string }>>(`select id, title from issue where workspace_id = $1 and id = $2`, [workspaceId, issue.parentIssueId])
      : [];
    const prompt = buildIssuePrompt({
      issue,
      parentIssue: parent ?? null,
      trigger,
      comments,
      commentsSinceLastTask: since !== null,
      omittedComments: (counted?.count ?? 0) - comments.length,
    });
    return this.triggers.insert(runner, {
      workspaceId,
      triggerKey: options.triggerKey,
      agentId,
      issueId: issue.id,
      chatSessionId: null,
      enqueue: {
        source: { kind: 'issue', issueId: issue.id, trigger: trigger.kind, commentId: triggerCommentId },
        prompt,
        priority: taskPriorityOfIssue(issue.priority),
        forceFreshSession: false,
      },
    });
  }
}
