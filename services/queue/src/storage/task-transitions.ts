import { AsyncLocalStorage } from 'node:async_hooks';
import type { TaskEvent } from '../domain/task.events';
import type { Task, TaskDeciderState } from '../domain/task.state';

/** One decision applied to one task: the state before, the state after, and the events between. */
export interface TaskTransition {
  readonly before: TaskDeciderState;
  readonly after: Task;
  readonly events: readonly TaskEvent[];
}

const recording = new AsyncLocalStorage<TaskTransition[]>();

/**
 * Notes a transition appended in the current transaction. Outside `recordingTaskTransitions` it
 * is dropped: nobody asked.
 */
export function noteTaskTransition(transition: TaskTransition): void {
  recording.getStore()?.push(transition);
}

/**
 * Runs one transaction and hands back the transitions its work appended. Every task change goes
 * through `applyTaskCommand` inside `runIdempotentCommand`'s transaction, down paths that do not
 * pass a log along (a claim, a retry, a sweep); the log therefore rides the async context. Each
 * try of a transaction rerun on a conflict starts a new one, so a caller observes only what
 * committed, once.
 */
export async function recordingTaskTransitions<Result>(transaction: () => Promise<Result>): Promise<{ readonly result: Result; readonly transitions: readonly TaskTransition[] }> {
  const transitions: TaskTransition[] = [];
  const result = await recording.run(transitions, transaction);
  return { result, transitions };
}
