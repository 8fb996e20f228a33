import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { isTerminalTaskState, type TaskCompletedPayload, type TaskFailureReason } from '@switchyard/contracts';
import { DATA_SOURCE, findQueuedTaskById, queuedTasksOfIssue, type QueuedTask } from '@switchyard/persistence';
import { CommentsRepository } from '../comments/comments.repository';
import type { RawQueryRunner } from '../database/returning-rows';
import type { IssueView } from '../issues/issue.schemas';
import { IssuesRepository, type IssueRecord } from '../issues/issues.repository';
import { WorkspaceNoticesPublisher } from '../notices/workspace-notices.publisher';
import { TaskReadsRepository } from '../tasks/task-reads.repository';
import { ISSUE_FAILURE_AUTHOR, issueFailureBody, issueFailureKey, issueResultBody, issueResultKey } from './issue-result.text';
import { statusAfterCompletion, statusAfterStart } from './issue-status.rules';

export type IssueResultOutcome =
  | 'not_an_issue_task'
  | 'issue_gone'
  | 'task_finished'
  | 'retry_follows'
  | 'unchanged'
  | 'status_changed'
  | 'commented'
  | 'already_commented';

/** A task of an issue as the queue's view holds it. */
type IssueTask = QueuedTask & { readonly issueId: string };

/** The end of a task that failed for good (`task.failed`, or `task.expired` for one nobody claimed). */
export interface IssueTaskFailure {
  readonly taskId: string;
  readonly reason: TaskFailureReason;
  readonly message: string;
}

interface Written {
  readonly commentId: string | undefined;
  readonly statusChanged: boolean;
}

const NOTHING_WRITTEN: Written = { commentId: undefined, statusChanged: false };

/**
 * Writes a run's result back to its issue: the issue goes `in_progress` when a task starts and
 * `in_review` when it completes (issue-status.rules.ts); the completed run's output becomes the
 * agent's comment unless the agent already commented in that run; a task that failed for good
 * leaves a system note with the reason. Whether a task is an issue's comes from the queue's view,
 * so automatic retries and reruns count too.
 *
 * Every write happens under the issue's row lock, after reading the task's state again: a
 * `task.started` handled after (or while) its task ended changes nothing. The comments' idempotency
 * keys (`result:<task>`, `failure:<task>`) make a redelivered or replayed event find what it wrote
 * first, and only the first write is announced. Comments are written straight to the repository
 * with no mentions: an `@name` in the output triggers no task. Output and message are redacted as
 * the task's timeline is.
 */
@Injectable()
export class IssueResultWriter {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly issues: IssuesRepository,
    private readonly comments: CommentsRepository,
    private readonly reads: TaskReadsRepository,
    private readonly notices: WorkspaceNoticesPublisher,
  ) {}

  async onStarted(taskId: string): Promise<IssueResultOutcome> {
    const task = await this.issueTask(this.dataSource, taskId);
    if (!task) return 'not_an_issue_task';
    const outcome = await this.issues.transaction(async (runner) => {
      const issue = await this.issues.find(task.workspaceId, task.issueId, runner, { forUpdate: true });
      if (!issue) return 'issue_gone' as const;
      const now = await this.issueTask(runner, taskId);
      if (!now || isTerminalTaskState(now.status)) return 'task_finished' as const;
      return (await this.moveTo(runner, { workspaceId: task.workspaceId, issue, status: statusAfterStart(issue.status) })) ? ('status_changed' as const) : ('unchanged' as const);
    });
    if (outcome === 'status_changed') this.notices.publish(task.workspaceId, { kind: 'issue.updated', id: task.issueId });
    return outcome;
  }

  async onCompleted(payload: Pick<TaskCompletedPayload, 'taskId' | 'output'>): Promise<IssueResultOutcome> {
    const task = await this.issueTask(this.dataSource, payload.taskId);
    if (!task) return 'not_an_issue_task';
    const redact = await this.reads.textRedactor(payload.taskId);
    const body = issueResultBody(payload.output === null ? null : redact(payload.output));
    const written = await this.issues.transaction(async (runner) => {
      const issue = await this.issues.find(task.workspaceId, task.issueId, runner, { forUpdate: true });
      if (!issue) return undefined;
      const commentId = await this.writeResultComment(runner, { task, body });
      const otherTasksUnfinished = (await this.otherTasks(task)).some((other) => !isTerminalTaskState(other.status));
      const status = statusAfterCompletion(issue.status, { otherTasksUnfinished });
      return { commentId, statusChanged: await this.moveTo(runner, { workspaceId: task.workspaceId, issue, status }) };
    });
    if (!written) return 'issue_gone';
    return this.announced(task, written);
  }

  async onFailed(failure: IssueTaskFailure): Promise<IssueResultOutcome> {
    const task = await this.issueTask(this.dataSource, failure.taskId);
    if (!task) return 'not_an_issue_task';
    // The queue enqueues an automatic retry in the failure's transaction: it is visible now, and its own end writes back.
    if ((await this.otherTasks(task)).some((other) => other.retryOfTaskId === task.taskId)) return 'retry_follows';
    const redact = await this.reads.textRedactor(failure.taskId);
    const body = issueFailureBody({ taskId: failure.taskId, reason: failure.reason, message: redact(failure.message) });
    const written = await this.issues.transaction(async (runner) => {
      const issue = await this.issues.find(task.workspaceId, task.issueId, runner, { forUpdate: true });
      if (!issue) return undefined;
      const key = issueFailureKey(task.taskId);
      if (await this.comments.findByIdempotencyKey(task.workspaceId, task.issueId, key)) return NOTHING_WRITTEN;
      const note = await this.comments.insert(runner, {
        workspaceId: task.workspaceId,
        issueId: task.issueId,
        author: ISSUE_FAILURE_AUTHOR,
        body,
        mentionedAgentIds: [],
        idempotencyKey: key,
        taskId: task.taskId,
      });
      return { commentId: note.id, statusChanged: false };
    });
    if (!written) return 'issue_gone';
    return this.announced(task, written);
  }

  /** The agent's comment, unless it (or this writer, on an earlier delivery) already commented in the run. */
  private async writeResultComment(runner: RawQueryRunner, options: { readonly task: IssueTask; readonly body: string }): Promise<string | undefined> {
    const { task } = options;
    const key = issueResultKey(task.taskId);
    if (await this.comments.findByIdempotencyKey(task.workspaceId, task.issueId, key)) return undefined;
    if (await this.comments.hasAgentCommentOfTask(runner, { workspaceId: task.workspaceId, issueId: task.issueId, taskId: task.taskId })) return undefined;
    const comment = await this.comments.insert(runner, {
      workspaceId: task.workspaceId,
      issueId: task.issueId,
      author: { kind: 'agent', id: task.agentId },
      body: options.body,
      mentionedAgentIds: [],
      idempotencyKey: key,
      taskId: task.taskId,
    });
    return comment.id;
  }

  /** Sets the status when there is one to set; true when it changed. */
  private async moveTo(runner: RawQueryRunner, options: { readonly workspaceId: string; readonly issue: IssueRecord; readonly status: IssueView['status'] | undefined }): Promise<boolean> {
    const { workspaceId, issue, status } = options;
    if (status === undefined || status === issue.status) return false;
    await this.issues.update(runner, { workspaceId, id: issue.id, input: { status } });
    return true;
  }

  private announced(task: IssueTask, written: Written): IssueResultOutcome {
    if (written.commentId) this.notices.publish(task.workspaceId, { kind: 'comment.created', id: written.commentId, issueId: task.issueId });
    if (written.statusChanged) this.notices.publish(task.workspaceId, { kind: 'issue.updated', id: task.issueId });
    if (written.commentId) return 'commented';
    return written.statusChanged ? 'status_changed' : 'already_commented';
  }

  private async issueTask(runner: RawQueryRunner, taskId: string): Promise<IssueTask | undefined> {
    const task = await findQueuedTaskById(runner, taskId);
    return task?.sourceKind === 'issue' && task.issueId !== null ? (task as IssueTask) : undefined;
  }

  private async otherTasks(task: IssueTask): Promise<QueuedTask[]> {
    const tasks = await queuedTasksOfIssue(this.dataSource, { workspaceId: task.workspaceId, issueId: task.issueId });
    return tasks.filter((other) => other.taskId !== task.taskId);
  }
}
