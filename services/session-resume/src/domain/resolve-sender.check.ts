import { hasLiveAttempt, type TaskAttempts } from './task-attempts';

/** Whether a daemon may ask which session a task continues; `why` is for the log, never the reply. */
export type ResolveSenderVerdict = { readonly verdict: 'allowed' } | { readonly verdict: 'refused'; readonly why: string };

/**
 * Only the daemon holding the task's live attempt may ask, and only for the task's own runtime:
 * the answer names another task's session and work dir, which no other daemon should learn or be
 * steered to. An unknown task is refused like any other, so the refusal says nothing of it.
 */
export function checkResolveSender(options: {
  readonly sender: string;
  readonly request: { readonly taskId: string; readonly runtimeId: string };
  readonly task: TaskAttempts | undefined;
}): ResolveSenderVerdict {
  const { sender, request, task } = options;
  if (task === undefined) return refused(`task ${request.taskId} is unknown`);
  if (!hasLiveAttempt(task)) return refused(`task ${task.taskId} has no live attempt (${task.status})`);
  const holder = task.holders.get(task.attempt);
  if (holder !== sender) return refused(`attempt ${task.attempt} of task ${task.taskId} is held by ${holder ?? 'nobody'}, not ${sender}`);
  if (request.runtimeId !== task.runtimeId) return refused(`task ${task.taskId} runs on ${task.runtimeId}, not ${request.runtimeId}`);
  return { verdict: 'allowed' };
}

function refused(why: string): ResolveSenderVerdict {
  return { verdict: 'refused', why };
}
