import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7, type TaskCompletedPayload } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { WorkspaceNoticesPublisher } from '../live/workspace-notices.publisher';
import { TaskReadsRepository } from '../tasks/task-reads.repository';
import { chatReplyBody, chatReplyKey } from './chat-reply.text';

export type ChatReplyOutcome = 'not_a_chat_task' | 'replied' | 'already_replied';

/**
 * A completed chat task answers in its session: one `agent` message holding the task's output.
 * The message's idempotency key `reply:<task>` (unique per session) makes a redelivered or
 * replayed completion find the reply it wrote first; only the first write is announced. The output
 * is redacted as the task's other text is (`TaskReadsRepository.textRedactor`) before it is stored.
 */
@Injectable()
export class ChatReplyWriter {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly notices: WorkspaceNoticesPublisher,
    private readonly reads: TaskReadsRepository,
  ) {}

  async onCompleted(payload: Pick<TaskCompletedPayload, 'taskId' | 'output'>): Promise<ChatReplyOutcome> {
    // The queue's row names the workspace and the session; a deleted session gets no reply.
    const [task] = await this.dataSource.query<Array<{ workspace_id: string; chat_session_id: string }>>(
      `select q.workspace_id, q.chat_session_id
         from agent_task_queue q join chat_session s on s.workspace_id = q.workspace_id and s.id = q.chat_session_id
        where q.task_id = $1 and q.source_kind = 'chat'`,
      [payload.taskId],
    );
    if (!task) return 'not_a_chat_task';
    const redact = await this.reads.textRedactor(payload.taskId);
    const [written] = await this.dataSource.query<Array<{ id: string }>>(
      `insert into chat_message (id, chat_session_id, workspace_id, role, body, attachments, idempotency_key)
       values ($1, $2, $3, 'agent', $4, '[]'::jsonb, $5)
       on conflict (chat_session_id, idempotency_key) where idempotency_key is not null do nothing
       returning id`,
      [uuidv7(), task.chat_session_id, task.workspace_id, chatReplyBody(payload.output === null ? null : redact(payload.output)), chatReplyKey(payload.taskId)],
    );
    if (!written) return 'already_replied';
    this.notices.publish(task.workspace_id, { kind: 'chat_message.created', id: written.id, chatSessionId: task.chat_session_id });
    return 'replied';
  }
}
