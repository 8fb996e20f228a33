import { Injectable } from '@nestjs/common';
import { actorOf, type Caller } from '../common/caller';
import { AgentsRepository } from '../agents/agents.repository';
import { isUniqueViolation } from '../database/unique-violation';
import { notFound } from '../common/api-error';
import { WorkspaceNoticesPublisher } from '../notices/workspace-notices.publisher';
import { invalidField } from '../issues/invalid-field';
import { IssuesRepository } from '../issues/issues.repository';
import { TasksService } from '../tasks/tasks.service';
import { authorOf, IssueTriggerWriter, mentionTriggerKey, mentionTriggerPrefix } from '../issues/issue-trigger.writer';
import { TaskTriggersRepository } from '../triggers/task-triggers.repository';
import { TriggerDispatcher } from '../triggers/trigger.dispatcher';
import type { CommentChange, CommentView, CreateCommentInput } from './comment.schemas';
import { CommentsRepository } from './comments.repository';
import { parseMentions } from './mention.parser';

/**
 * Comments and their mention triggers: one task per mentioned agent, keyed by (comment, agent),
 * written in the comment's transaction and sent after it commits.
 */
@Injectable()
export class CommentsService {
  constructor(
    private readonly comments: CommentsRepository,
    private readonly issues: IssuesRepository,
    private readonly agents: AgentsRepository,
    private readonly tasks: TasksService,
    private readonly writer: IssueTriggerWriter,
    private readonly triggers: TaskTriggersRepository,
    private readonly dispatcher: TriggerDispatcher,
    private readonly notices: WorkspaceNoticesPublisher,
  ) {}

  async list(workspaceId: string, issueId: string): Promise<CommentView[]> {
    if (!(await this.issues.find(workspaceId, issueId))) throw notFound('issue', issueId);
    return this.comments.list(workspaceId, issueId);
  }

  async create(caller: Caller, issueId: string, input: CreateCommentInput, idempotencyKey: string | undefined): Promise<CommentChange> {
    const { workspaceId } = caller;
    if (!(await this.issues.find(workspaceId, issueId))) throw notFound('issue', issueId);
    const earlier = idempotencyKey === undefined ? undefined : await this.comments.findByIdempotencyKey(workspaceId, issueId, idempotencyKey);
    if (earlier) return this.repeat(workspaceId, earlier);
    // An agent naming itself in its own comment starts no run of itself: that would loop.
    const mentionedAgentIds = await this.mentionedAgents(workspaceId, input, caller.kind === 'task' ? caller.agentId : undefined);
    let comment: CommentView;
    try {
      comment = await this.issues.transaction(async (runner) => {
        const issue = await this.issues.find(workspaceId, issueId, runner, { forUpdate: true });
        if (!issue) throw notFound('issue', issueId);
        const author = actorOf(caller);
        const taskId = caller.kind === 'task' ? caller.taskId : null;
        const written = await this.comments.insert(runner, { workspaceId, issueId, author, body: input.body, mentionedAgentIds, idempotencyKey, taskId });
        const promptComment = { id: written.id, author: authorOf(author.kind, author.id), body: written.body, createdAt: written.createdAt };
        for (const agentId of mentionedAgentIds) {
          await this.writer.write(runner, { workspaceId, issue, agentId, triggerKey: mentionTriggerKey(written.id, agentId), trigger: { kind: 'mention', comment: promptComment } });
        }
        return written;
      });
    } catch (error) {
      const winner =
        idempotencyKey !== undefined && isUniqueViolation(error, 'issue_comment_idempotency_key')
          ? await this.comments.findByIdempotencyKey(workspaceId, issueId, idempotencyKey)
          : undefined;
      if (winner) return this.repeat(workspaceId, winner);
      throw error;
    }
    this.notices.publish(workspaceId, { kind: 'comment.created', id: comment.id, issueId });
    return this.repeat(workspaceId, comment);
  }

  /** Sends the comment's pending mention triggers; those already sent answer with their task. */
  private async repeat(workspaceId: string, comment: CommentView): Promise<CommentChange> {
    const triggers = (await this.triggers.findByPrefix(this.triggers.runner, workspaceId, mentionTriggerPrefix(comment.id))).sort(
      (left, right) => comment.mentionedAgentIds.indexOf(left.agentId) - comment.mentionedAgentIds.indexOf(right.agentId),
    );
    return { ...comment, tasks: await this.dispatcher.dispatch(workspaceId, triggers, { kind: 'comment', id: comment.id }) };
  }

  /** `mentionAgentIds` first, then the `@name`s of active agents (but `author`); each must be able to take a task, or nothing is written. */
  private async mentionedAgents(workspaceId: string, input: CreateCommentInput, authorAgentId: string | undefined): Promise<string[]> {
    const active = await this.agents.list(workspaceId, { includeArchived: false });
    const explicit = input.mentionAgentIds ?? [];
    for (const [index, agentId] of explicit.entries()) {
      if (!(await this.agents.find(workspaceId, agentId))) throw invalidField(`mentionAgentIds.${index}`, `agent ${agentId} not found`);
    }
    const ids = [...new Set([...explicit, ...parseMentions(input.body, active)])].filter((agentId) => agentId !== authorAgentId);
    for (const agentId of ids) await this.tasks.usableAgent(workspaceId, agentId);
    return ids;
  }
}
