import { continuesConversation, type TaskSource } from '@switchyard/contracts';

/**
 * The conversation a task belongs to: issue tasks continue (agent, issue), chat tasks the chat
 * session. Different agents on one issue never share a session. Quick create and autopilot runs
 * have no conversation to continue.
 */
export type ResumeKey = { kind: 'issue'; agentId: string; issueId: string } | { kind: 'chat'; chatSessionId: string };

export function resumeKeyOf(task: { agentId: string; source: TaskSource }): ResumeKey | null {
  const { source } = task;
  if (!continuesConversation(source)) return null;
  return source.kind === 'issue' ? { kind: 'issue', agentId: task.agentId, issueId: source.issueId } : { kind: 'chat', chatSessionId: source.chatSessionId };
}

/** The key as one string, the index's lookup column. Ids are subject segments (no spaces), so `:` cannot collide. */
export function resumeKeyText(key: ResumeKey): string {
  return key.kind === 'issue' ? `issue:${key.agentId}:${key.issueId}` : `chat:${key.chatSessionId}`;
}
