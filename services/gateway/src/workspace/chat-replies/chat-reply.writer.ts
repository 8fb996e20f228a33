import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7, type TaskCompletedPayload } from '@switchyard/contracts';
import { DATA_SOURCE, findQueuedTaskById } from '@switchyard/persistence';
import { WorkspaceNoticesPublisher } from '../notices/workspace-notices.publisher';
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
    // The queue's view names the workspace and the session; a deleted session gets no reply.
    const task = await findQueuedTaskById(this.dataSource, payload.taskId);
    if (task?.sourceKind !== 'chat' || task.chatSessionId === null) return 'not_a_chat_task';
    const { workspaceId, chatSessionId } = task;
    const sessions = await this.dataSource.query<unknown[]>('select 1 from chat_session where workspace_id = $1 and id = $2', [workspaceId, chatSessionId]);
    if (sessions.length === 0) return 'not_a_chat_task';
    const redact = await this.reads.textRedactor(payload.taskId);
    const [written] = await this.dataSource.query<Array<{ id: string }>>(
      `insert into chat_message (id, chat_session_id, workspace_id, role, body, attachments, idempotency_key)
       values ($1, $2, $3, 'agent', $4, '[]'::jsonb, $5)
       on conflict (chat_session_id, idempotency_key) where idempotency_key is not null do nothing
       returning id`,
      [uuidv7(), chatSessionId, workspaceId, chatReplyBody(payload.output === null ? null : redact(payload.output)), chatReplyKey(payload.taskId)],
    );
    if (!written) return 'already_replied';
    this.notices.publish(workspaceId, { kind: 'chat_message.created', id: written.id, chatSessionId });
    return 'replied';
  }
}
