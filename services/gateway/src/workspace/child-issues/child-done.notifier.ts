import { Inject, Injectable } from '@nestjs/common';
import type { TaskCompletedPayload } from '@switchyard/contracts';
import type { JsonLogger } from '@switchyard/service-kit';
import { GATEWAY_LOGGER } from '../../gateway.injection-keys';
import { ApiError, type ApiErrorCode } from '../common/api-error';
import { IssuesRepository } from '../issues/issues.repository';
import { authorOf, IssueTriggerWriter } from '../issues/issue-trigger.writer';
import { TaskReadsRepository } from '../tasks/task-reads.repository';
import type { TaskTriggerRecord } from '../triggers/task-triggers.repository';
import { TriggerDispatcher } from '../triggers/trigger.dispatcher';
import { buildChildDoneNote, CHILD_DONE_AUTHOR, childDoneKey } from './child-done.note';
import { ChildDoneRepository } from './child-done.repository';

/** Worth a redelivery: the queue may answer later. Anything else (archived agent, ...) will not change by retrying. */
const RETRYABLE_DISPATCH_ERRORS: ReadonlySet<ApiErrorCode> = new Set(['queue_unavailable', 'queue_error']);

export type ChildDoneOutcome = 'not_a_child' | 'parent_gone' | 'noted' | 'noted_and_triggered' | 'trigger_refused';

/**
 * A completed task of a child issue tells its parent (design §7): a system note on the parent,
 * and a review task for the parent's assignee, a `mention` of that note. Both are keyed by the
 * child task (`child_done:<task>`: the note's idempotency key and the trigger key), written in one
 * transaction, so a redelivered event changes nothing and re-sends a pending trigger with its
 * request id. Parent and child share no session: the review task runs under the parent's issue id.
 */
@Injectable()
export class ChildDoneNotifier {
  constructor(
    private readonly repository: ChildDoneRepository,
    private readonly issues: IssuesRepository,
    private readonly writer: IssueTriggerWriter,
    private readonly dispatcher: TriggerDispatcher,
    private readonly reads: TaskReadsRepository,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
  ) {}

  async onCompleted(payload: Pick<TaskCompletedPayload, 'taskId' | 'output'>): Promise<ChildDoneOutcome> {
    const childTask = await this.repository.childTask(payload.taskId);
    if (!childTask) return 'not_a_child';
    const { workspaceId, parentIssueId } = childTask;
    const key = childDoneKey(payload.taskId);
    // The note shows the child's output to clients and to the parent's agent: redacted like the child's timeline.
    const redact = await this.reads.textRedactor(payload.taskId);
    const output = payload.output === null ? null : redact(payload.output);
    const written = await this.issues.transaction(async (runner) => {
      const parent = await this.issues.find(workspaceId, parentIssueId, runner, { forUpdate: true });
      if (!parent) return undefined;
      const body = buildChildDoneNote({ child: childTask.child, taskId: payload.taskId, output });
      const note = await this.repository.writeNote(runner, { workspaceId, issueId: parent.id, key, body });
      if (!parent.assigneeAgentId) return { note, trigger: undefined as TaskTriggerRecord | undefined };
      const comment = { id: note.id, author: authorOf(CHILD_DONE_AUTHOR.kind, CHILD_DONE_AUTHOR.id), body: note.body, createdAt: note.createdAt };
      const trigger = await this.writer.write(runner, { workspaceId, issue: parent, agentId: parent.assigneeAgentId, triggerKey: key, trigger: { kind: 'mention', comment } });
      return { note, trigger };
    });
    if (!written) return 'parent_gone';
    if (!written.trigger) return 'noted';
    try {
      await this.dispatcher.dispatch(workspaceId, [written.trigger], { kind: 'comment', id: written.note.id });
    } catch (error) {
      if (error instanceof ApiError && !RETRYABLE_DISPATCH_ERRORS.has(error.code)) {
        // The note and the trigger row stay; the review task waits for a re-send.
        this.logger.warn({ event: 'child_done_trigger_refused', taskId: payload.taskId, code: error.code, parentIssueId }, error.message);
        return 'trigger_refused';
      }
      throw error;
    }
    return 'noted_and_triggered';
  }
}
