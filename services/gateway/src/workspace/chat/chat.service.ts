import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/caller';
import { isUniqueViolation } from '../database/unique-violation';
import { notFound } from '../common/api-error';
import { WorkspaceNoticesPublisher } from '../notices/workspace-notices.publisher';
import { TasksService } from '../tasks/tasks.service';
import { buildChatPrompt } from '../triggers/chat-prompt.builder';
import { TaskTriggersRepository, type TaskTriggerRecord } from '../triggers/task-triggers.repository';
import { TriggerDispatcher } from '../triggers/trigger.dispatcher';
import {
  CHAT_TASK_PRIORITY,
  NEW_SESSION_COMMAND,
  type ChatMessageChange,
  type ChatMessageView,
  type ChatSessionListQuery,
  type ChatSessionView,
  type CreateChatSessionInput,
  type PostChatMessageInput,
} from './chat.schemas';
import { ChatRepository } from './chat.repository';

const chatTriggerKey = (messageId: string): string => `chat:${messageId}`;

/**
 * Chat sessions with one agent. Every user message is its own task (never merged into a running
 * one), keyed by the message; `/new` only marks the session so the next task starts fresh.
 */
@Injectable()
export class ChatService {
  constructor(
    private readonly chat: ChatRepository,
    private readonly tasks: TasksService,
    private readonly triggers: TaskTriggersRepository,
    private readonly dispatcher: TriggerDispatcher,
    private readonly notices: WorkspaceNoticesPublisher,
  ) {}

  async createSession(workspaceId: string, input: CreateChatSessionInput): Promise<ChatSessionView> {
    const agent = await this.tasks.usableAgent(workspaceId, input.agentId);
    const session = await this.chat.createSession({ workspaceId, agentId: agent.id, title: input.title ?? '' });
    this.notices.publish(workspaceId, { kind: 'chat_session.created', id: session.id, chatSessionId: session.id });
    return session;
  }

  listSessions(workspaceId: string, query: ChatSessionListQuery): Promise<ChatSessionView[]> {
    return this.chat.listSessions(workspaceId, query);
  }

  async findSession(workspaceId: string, id: string): Promise<ChatSessionView> {
    const session = await this.chat.findSession(workspaceId, id);
    if (!session) throw notFound('chat session', id);
    return session;
  }

  /**
   * Its live tasks are cancelled first: a failed cancel (503) deletes nothing, and a retry can
   * finish. Then the session goes with its messages; a reply that arrives later finds no session.
   */
  async deleteSession(caller: Caller, id: string): Promise<void> {
    const { workspaceId } = caller;
    await this.findSession(workspaceId, id);
    await this.tasks.cancelUnfinished(caller, { kind: 'chat_session', chatSessionId: id }, 'the chat session was deleted');
    if (!(await this.chat.deleteSession(workspaceId, id))) throw notFound('chat session', id);
    this.notices.publish(workspaceId, { kind: 'chat_session.deleted', id, chatSessionId: id });
  }

  async listMessages(workspaceId: string, chatSessionId: string): Promise<ChatMessageView[]> {
    await this.findSession(workspaceId, chatSessionId);
    return this.chat.listMessages(workspaceId, chatSessionId);
  }

  async post(caller: Caller, chatSessionId: string, input: PostChatMessageInput, idempotencyKey: string | undefined): Promise<ChatMessageChange> {
    const { workspaceId } = caller;
    const session = await this.findSession(workspaceId, chatSessionId);
    const earlier = idempotencyKey === undefined ? undefined : await this.chat.findMessageByIdempotencyKey(workspaceId, chatSessionId, idempotencyKey);
    if (earlier) return this.repeat(workspaceId, earlier);
    const startsNewSession = input.body.trim() === NEW_SESSION_COMMAND;
    if (!startsNewSession) await this.tasks.usableAgent(workspaceId, session.agentId);
    let written: { message: ChatMessageView; trigger: TaskTriggerRecord | undefined };
    try {
      written = await this.chat.transaction(async (runner) => {
        const locked = await this.chat.findSession(workspaceId, chatSessionId, runner, { forUpdate: true });
        if (!locked) throw notFound('chat session', chatSessionId);
        const attachments = input.attachments ?? [];
        const message = await this.chat.insertMessage(runner, { workspaceId, chatSessionId, body: input.body, attachments, idempotencyKey });
        if (startsNewSession) {
          await this.chat.setForceFreshSession(runner, { workspaceId, id: chatSessionId, value: true });
          return { message, trigger: undefined };
        }
        // A pending `/new` is used up by this message's task.
        if (locked.forceFreshSession) await this.chat.setForceFreshSession(runner, { workspaceId, id: chatSessionId, value: false });
        const trigger = await this.triggers.insert(runner, {
          workspaceId,
          triggerKey: chatTriggerKey(message.id),
          agentId: locked.agentId,
          issueId: null,
          chatSessionId,
          enqueue: {
            source: { kind: 'chat', chatSessionId, chatMessageId: message.id },
            prompt: buildChatPrompt({ body: input.body, attachments }),
            priority: CHAT_TASK_PRIORITY,
            forceFreshSession: locked.forceFreshSession,
          },
        });
        return { message, trigger };
      });
    } catch (error) {
      const winner =
        idempotencyKey !== undefined && isUniqueViolation(error, 'chat_message_idempotency_key')
          ? await this.chat.findMessageByIdempotencyKey(workspaceId, chatSessionId, idempotencyKey)
          : undefined;
      if (winner) return this.repeat(workspaceId, winner);
      throw error;
    }
    this.notices.publish(workspaceId, { kind: 'chat_message.created', id: written.message.id, chatSessionId });
    return this.dispatched(workspaceId, written.message, written.trigger);
  }

  private async repeat(workspaceId: string, message: ChatMessageView): Promise<ChatMessageChange> {
    const [trigger] = await this.triggers.find(this.triggers.runner, workspaceId, [chatTriggerKey(message.id)]);
    return this.dispatched(workspaceId, message, trigger);
  }

  private async dispatched(workspaceId: string, message: ChatMessageView, trigger: TaskTriggerRecord | undefined): Promise<ChatMessageChange> {
    const [task] = trigger ? await this.dispatcher.dispatch(workspaceId, [trigger], { kind: 'chat_message', id: message.id }) : [];
    return { ...message, task: task ?? null };
  }
}
