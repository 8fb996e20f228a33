/** The chat shows this much of a task's output; the whole answer stays in the task's timeline. */
export const CHAT_REPLY_MAX_CHARACTERS = 20_000;

/** One agent message per chat task, however often its completion arrives. */
export const chatReplyKey = (taskId: string): string => `reply:${taskId}`;

/** The task's final output, capped, saying how much was left out. */
export function chatReplyBody(output: string | null): string {
  const text = output?.trim() ? output.trim() : '(no output)';
  if (text.length <= CHAT_REPLY_MAX_CHARACTERS) return text;
  return `${text.slice(0, CHAT_REPLY_MAX_CHARACTERS)}\n[... ${text.length - CHAT_REPLY_MAX_CHARACTERS} more characters]`;
}
