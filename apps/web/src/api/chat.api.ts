import { api } from './http-client';
import type { TaskSummary } from './tasks.api';

// Chat sessions and their messages (services/gateway/src/workspace/chat/chat.schemas.ts).

/** A message whose whole body (trimmed) is this starts a fresh CLI session for the next message and creates no task. */
export const NEW_SESSION_COMMAND = '/new';
/** The most sessions the API lists at once (it has no cursor: newest first, up to this many). */
export const CHAT_SESSION_LIST_LIMIT = 500;

export interface ChatSession {
  readonly id: string;
  readonly agentId: string;
  readonly title: string;
  /** A `/new` is pending: the next message's task starts a fresh CLI session. */
  readonly forceFreshSession: boolean;
  readonly createdAt: string;
}

export interface ChatAttachment {
  readonly name: string;
  readonly url?: string;
  readonly mediaType?: string;
}

export type ChatAuthorKind = 'user' | 'agent';

export interface ChatMessage {
  readonly id: string;
  readonly chatSessionId: string;
  readonly role: ChatAuthorKind;
  readonly body: string;
  readonly attachments: readonly ChatAttachment[];
  readonly createdAt: string;
}

export interface TriggeredTask {
  readonly agentId: string;
  readonly taskId: string;
  readonly trigger: 'assignment' | 'mention' | 'chat';
}

/** What a posted message answers: the message and its own task (null for `/new`). */
export interface ChatMessageChange extends ChatMessage {
  readonly task: TriggeredTask | null;
}

/** Task states in which a reply is still to come. */
export const UNFINISHED_TASK_STATES = ['queued', 'deferred', 'dispatched', 'waiting_local_directory', 'running'] as const;

export const chatKeys = {
  all: ['chat-sessions'] as const,
  sessions: () => ['chat-sessions', 'list'] as const,
  session: (chatSessionId: string) => ['chat-sessions', 'one', chatSessionId] as const,
  messages: (chatSessionId: string) => ['chat-sessions', 'one', chatSessionId, 'messages'] as const,
  unfinishedTasks: (chatSessionId: string) => ['chat-sessions', 'one', chatSessionId, 'unfinished-tasks'] as const,
};

export async function listChatSessions(): Promise<ChatSession[]> {
  const answer = await api.get<{ chatSessions: ChatSession[] }>(`/api/chat-sessions?limit=${CHAT_SESSION_LIST_LIMIT}`);
  return answer.chatSessions;
}

export function findChatSession(chatSessionId: string): Promise<ChatSession> {
  return api.get<ChatSession>(`/api/chat-sessions/${encodeURIComponent(chatSessionId)}`);
}

export function createChatSession(input: { readonly agentId: string; readonly title?: string }): Promise<ChatSession> {
  return api.post<ChatSession>('/api/chat-sessions', input);
}

export function deleteChatSession(chatSessionId: string): Promise<void> {
  return api.delete(`/api/chat-sessions/${encodeURIComponent(chatSessionId)}`);
}

export async function listChatMessages(chatSessionId: string): Promise<ChatMessage[]> {
  const answer = await api.get<{ messages: ChatMessage[] }>(`/api/chat-sessions/${encodeURIComponent(chatSessionId)}/messages`);
  return answer.messages;
}

export function postChatMessage(input: { readonly chatSessionId: string; readonly body: string }): Promise<ChatMessageChange> {
  return api.post<ChatMessageChange>(`/api/chat-sessions/${encodeURIComponent(input.chatSessionId)}/messages`, { body: input.body });
}

/**
 * The session's tasks still to answer. Messages do not name their task, so they are found among the
 * agent's unfinished tasks (few at a time: an agent runs a handful at most) by their chat session.
 */
export async function listUnfinishedChatTasks(session: Pick<ChatSession, 'id' | 'agentId'>): Promise<TaskSummary[]> {
  const query = new URLSearchParams({ agentId: session.agentId, status: UNFINISHED_TASK_STATES.join(','), limit: '200' });
  const answer = await api.get<{ tasks: TaskSummary[] }>(`/api/tasks?${query.toString()}`);
  return answer.tasks.filter((task) => task.chatSessionId === session.id).reverse();
}

export function isNewSessionCommand(body: string): boolean {
  return body.trim() === NEW_SESSION_COMMAND;
}
