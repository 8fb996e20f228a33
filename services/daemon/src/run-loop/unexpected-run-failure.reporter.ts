import type { ClaimedTask } from '@switchyard/contracts';
import type { QueueClient } from './queue.client';

/** How much of the error's text goes into the task's failure (the whole error is in the log). */
const MAX_ERROR_CHARACTERS = 500;

/**
 * The last line of defence for a run whose own code threw (a Switchyard defect, not the CLI's):
 * the task fails `internal` at once instead of waiting out its lease as if it were still running.
 * A task the run had already ended is refused by the queue as terminal, which changes nothing.
 */
export async function reportUnexpectedRunFailure(options: {
  readonly queue: Pick<QueueClient, 'sendUntilAnswered'>;
  readonly task: Pick<ClaimedTask, 'taskId' | 'attempt' | 'leaseToken'>;
  readonly daemonId: string;
  readonly error: unknown;
  /** Aborted at shutdown: the report is not retried past it. */
  readonly signal: AbortSignal;
}): Promise<void> {
  const text = options.error instanceof Error ? options.error.message : String(options.error);
  const cut = text.length > MAX_ERROR_CHARACTERS ? `${text.slice(0, MAX_ERROR_CHARACTERS)}…` : text;
  await options.queue.sendUntilAnswered(
    'task.fail',
    {
      taskId: options.task.taskId,
      attempt: options.task.attempt,
      daemonId: options.daemonId,
      leaseToken: options.task.leaseToken,
      reason: 'internal',
      message: `the daemon failed while running the task: ${cut}`,
      repositories: [],
      sessionId: null,
      detail: null,
      durationMs: null,
    },
    { signal: options.signal },
  );
}
