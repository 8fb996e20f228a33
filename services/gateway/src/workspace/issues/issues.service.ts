import { Injectable } from '@nestjs/common';
import { uuidv7 } from '@switchyard/contracts';
import type { Caller } from '../common/caller';
import type { RawQueryRunner } from '../database/returning-rows';
import { isUniqueViolation } from '../database/unique-violation';
import { notFound } from '../common/api-error';
import { WorkspaceNoticesPublisher } from '../notices/workspace-notices.publisher';
import { TasksService } from '../tasks/tasks.service';
import { IssueTriggerWriter } from './issue-trigger.writer';
import { TaskTriggersRepository, type TaskTriggerRecord } from '../triggers/task-triggers.repository';
import { TriggerDispatcher } from '../triggers/trigger.dispatcher';
import { invalidField } from './invalid-field';
import type { CreateIssueInput, IssueChange, IssueListQuery, IssueView, UpdateIssueInput } from './issue.schemas';
import { IssuesRepository, issueViewOf, type IssueRecord } from './issues.repository';

/** Every assignment mints its own trigger key: re-assigning after an unassign is a new trigger. */
const newAssignmentTriggerKey = (issueId: string): string => `assignment:${issueId}:${uuidv7()}`;

/**
 * Issues and their assignment trigger. Everything a request names is checked before its
 * transaction; the issue and its trigger are written together, then the trigger is sent.
 */
@Injectable()
export class IssuesService {
  constructor(
    private readonly issues: IssuesRepository,
    private readonly tasks: TasksService,
    private readonly writer: IssueTriggerWriter,
    private readonly triggers: TaskTriggersRepository,
    private readonly dispatcher: TriggerDispatcher,
    private readonly notices: WorkspaceNoticesPublisher,
  ) {}

  async list(workspaceId: string, query: IssueListQuery): Promise<IssueView[]> {
    return (await this.issues.list(workspaceId, query)).map(issueViewOf);
  }

  async find(workspaceId: string, id: string): Promise<IssueView> {
    return issueViewOf(await this.required(workspaceId, id));
  }

  async create(caller: Caller, input: CreateIssueInput, idempotencyKey: string | undefined): Promise<IssueChange> {
    const { workspaceId } = caller;
    const earlier = idempotencyKey === undefined ? undefined : await this.issues.findByIdempotencyKey(workspaceId, idempotencyKey);
    if (earlier) return this.repeat(workspaceId, earlier);
    if (input.assigneeAgentId) await this.tasks.usableAgent(workspaceId, input.assigneeAgentId);
    let written: { issue: IssueRecord; trigger: TaskTriggerRecord | undefined };
    try {
      written = await this.issues.transaction(async (runner) => {
        let project = input.project ?? null;
        if (input.parentIssueId) {
          const parent = await this.issues.find(workspaceId, input.parentIssueId, runner);
          if (!parent) throw invalidField('parentIssueId', `issue ${input.parentIssueId} not found`);
          // Children inherit the parent's project unless they name one.
          if (input.project === undefined) project = parent.project;
        }
        const issue = await this.issues.insert(runner, { workspaceId, input, project, idempotencyKey });
        if (!issue.assigneeAgentId) return { issue, trigger: undefined };
        return this.assign(runner, { workspaceId, issue, agentId: issue.assigneeAgentId });
      });
    } catch (error) {
      // A concurrent request with the same key won the insert: this one is its repeat.
      const winner = idempotencyKey !== undefined && isUniqueViolation(error, 'issue_idempotency_key') ? await this.issues.findByIdempotencyKey(workspaceId, idempotencyKey) : undefined;
      if (winner) return this.repeat(workspaceId, winner);
      throw error;
    }
    this.notices.publish(workspaceId, { kind: 'issue.created', id: written.issue.id });
    return this.dispatched(workspaceId, written);
  }

  async update(caller: Caller, id: string, input: UpdateIssueInput): Promise<IssueChange> {
    const { workspaceId } = caller;
    if (input.assigneeAgentId) await this.tasks.usableAgent(workspaceId, input.assigneeAgentId);
    const written = await this.issues.transaction(async (runner) => {
      const stored = await this.issues.find(workspaceId, id, runner, { forUpdate: true });
      if (!stored) throw notFound('issue', id);
      if (input.parentIssueId) {
        if (!(await this.issues.find(workspaceId, input.parentIssueId, runner))) throw invalidField('parentIssueId', `issue ${input.parentIssueId} not found`);
        if (await this.issues.wouldCycle(runner, { workspaceId, issueId: id, candidateParentId: input.parentIssueId })) {
          throw invalidField('parentIssueId', 'an issue cannot be its own ancestor');
        }
      }
      const assigneeChanges = input.assigneeAgentId !== undefined && input.assigneeAgentId !== stored.assigneeAgentId;
      const issue = await this.issues.update(runner, { workspaceId, id, input, ...(assigneeChanges ? { assignmentTriggerKey: null } : {}) });
      if (assigneeChanges && issue.assigneeAgentId) return this.assign(runner, { workspaceId, issue, agentId: issue.assigneeAgentId });
      // The same assignee again: no new trigger, but a pending one (its enqueue failed) is sent again.
      const repeated = input.assigneeAgentId && issue.assignmentTriggerKey ? await this.triggers.find(runner, workspaceId, [issue.assignmentTriggerKey]) : [];
      return { issue, trigger: repeated[0] };
    });
    this.notices.publish(workspaceId, { kind: 'issue.updated', id });
    return this.dispatched(workspaceId, written);
  }

  /** Its live tasks are cancelled first: a failed cancel (503) deletes nothing, and a retry can finish. */
  async delete(caller: Caller, id: string): Promise<void> {
    const { workspaceId } = caller;
    await this.required(workspaceId, id);
    await this.tasks.cancelUnfinished(caller, { kind: 'issue', issueId: id }, 'the issue was deleted');
    if (!(await this.issues.delete(workspaceId, id))) throw notFound('issue', id);
    this.notices.publish(workspaceId, { kind: 'issue.deleted', id });
  }

  private async assign(
    runner: RawQueryRunner,
    options: { workspaceId: string; issue: IssueRecord; agentId: string },
  ): Promise<{ issue: IssueRecord; trigger: TaskTriggerRecord }> {
    const { workspaceId, issue, agentId } = options;
    const triggerKey = newAssignmentTriggerKey(issue.id);
    await this.issues.setAssignmentTrigger(runner, { workspaceId, id: issue.id, triggerKey });
    const trigger = await this.writer.write(runner, { workspaceId, issue, agentId, triggerKey, trigger: { kind: 'assignment' } });
    return { issue: { ...issue, assignmentTriggerKey: triggerKey }, trigger };
  }

  /** A retried create: the issue as it was created, its assignment re-sent when still pending. */
  private async repeat(workspaceId: string, issue: IssueRecord): Promise<IssueChange> {
    const [trigger] = issue.assignmentTriggerKey ? await this.triggers.find(this.triggers.runner, workspaceId, [issue.assignmentTriggerKey]) : [];
    return this.dispatched(workspaceId, { issue, trigger });
  }

  private async dispatched(workspaceId: string, written: { issue: IssueRecord; trigger: TaskTriggerRecord | undefined }): Promise<IssueChange> {
    const tasks = written.trigger ? await this.dispatcher.dispatch(workspaceId, [written.trigger], { kind: 'issue', id: written.issue.id }) : [];
    return { ...issueViewOf(written.issue), tasks };
  }

  private async required(workspaceId: string, id: string): Promise<IssueRecord> {
    const issue = await this.issues.find(workspaceId, id);
    if (!issue) throw notFound('issue', id);
    return issue;
  }
}
