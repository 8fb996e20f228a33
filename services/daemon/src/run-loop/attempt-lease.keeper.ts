import type { ClaimedTask } from '@switchyard/contracts';
import type { QueueClient } from './queue.client';

/** Renews an attempt's lease from its accepted start until its last report is answered. */
export interface AttemptLease {
  /**
   * While a CLI runs, what to do when a renewal says stop (a missed cancel, or the queue gave the
   * attempt up); returns the undo. A stop heard with no CLI running is kept for the next one.
   */
  onStopRequested(stop: () => Promise<void>): () => void;
  end(): void;
}

/**
 * One renewal loop for the whole attempt, not only while the CLI streams: preparing the CLI,
 * flushing the outbox and sending the terminal report take time too, and on a loaded machine
 * more than a lease (the queue would then fail a finished run `timeout`).
 */
export function keepAttemptLease(options: {
  readonly task: Pick<ClaimedTask, 'taskId' | 'attempt' | 'leaseToken'>;
  readonly daemonId: string;
  readonly queue: Pick<QueueClient, 'send'>;
  readonly renewEveryMs: number;
}): AttemptLease {
  const { task } = options;
  let stop: (() => Promise<void>) | undefined;
  let stopRequested = false;
  const requestStop = async (): Promise<void> => {
    stopRequested = true;
    await stop?.();
  };
  const renewal = setInterval(() => {
    void options.queue
      .send('task.renew', { taskId: task.taskId, attempt: task.attempt, daemonId: options.daemonId, leaseToken: task.leaseToken })
      .then(async (reply) => {
        if (!reply.ok || reply.result.cancelRequested) await requestStop();
      })
      .catch(() => undefined);
  }, options.renewEveryMs);
  return {
    onStopRequested(next) {
      stop = next;
      if (stopRequested) void next().catch(() => undefined);
      return () => {
        if (stop === next) stop = undefined;
      };
    },
    end: () => clearInterval(renewal),
  };
}
