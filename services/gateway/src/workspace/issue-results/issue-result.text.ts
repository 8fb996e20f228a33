import { TASK_FAILURE_REASONS, type Actor, type TaskFailureReason } from '@switchyard/contracts';

/** The issue shows this much of a run's output; the whole answer stays in the task's timeline. */
export const ISSUE_RESULT_MAX_CHARACTERS = 20_000;

/** Who writes the failure note: the gateway itself, not a caller. */
export const ISSUE_FAILURE_AUTHOR: Actor = { kind: 'system', id: 'gateway' };

/** One result comment per completed task, one failure note per failed task, however often their events arrive. */
export const issueResultKey = (taskId: string): string => `result:${taskId}`;
export const issueFailureKey = (taskId: string): string => `failure:${taskId}`;

const capped = (text: string): string =>
  text.length <= ISSUE_RESULT_MAX_CHARACTERS ? text : `${text.slice(0, ISSUE_RESULT_MAX_CHARACTERS)}\n[... ${text.length - ISSUE_RESULT_MAX_CHARACTERS} more characters]`;

/** The agent's comment: its final output (already redacted), trimmed and capped. */
export function issueResultBody(output: string | null): string {
  return output?.trim() ? capped(output.trim()) : '(no output)';
}

/** The system note of a failed run: the reason with what it means, the (redacted) message, the task. */
export function issueFailureBody(failure: { readonly taskId: string; readonly reason: TaskFailureReason; readonly message: string }): string {
  const message = failure.message.trim() ? `\n\n${capped(failure.message.trim())}` : '';
  return `The agent's run failed: ${failure.reason} (${TASK_FAILURE_REASONS[failure.reason].description})${message}\n\n(task ${failure.taskId})`;
}
