import type { ClaimedTask } from '@switchyard/contracts';
import type { QueueClient } from './queue.client';

/** What one renewal learned: the queue kept the attempt, told it to stop, or did not answer. */
export type RenewalOutcome = 'kept' | 'stop' | 'unanswered';

/** Renews an attempt's lease from its accepted start until its last report is answered. */
export interface AttemptLease {
  /**
   * While a CLI runs, what to do when a renewal says stop (a missed cancel, or the queue gave the
   * attempt up); returns the undo. A stop heard with no CLI running is kept for the next one.
   */
  onStopRequested(stop: () => Promise<void>): () => void;
  /** One renewal now, outside the interval: after a reconnect, the queue hears at once that the run goes on. */
  renewNow(): Promise<RenewalOutcome>;
  /** Why the queue refused a renewal for good (it gave the attempt up, e.g. past the reconnect grace); undefined while it has not. */
  refusal(): { readonly code: string; readonly message: string } | undefined;
  end(): void;
}

/**
 * The leases of the runs in flight. When the daemon's bus link comes back, every one is renewed at
 * once: the queue learns its attempts are alive (they were kept for the reconnect grace), and a run
 * whose attempt was given up meanwhile is stopped before the daemon claims anything new.
 */
export class LiveAttemptLeases {
  private readonly leases = new Set<AttemptLease>();

  add(lease: AttemptLease): () => void {
    this.leases.add(lease);
    return () => this.leases.delete(lease);
  }

  get size(): number {
    return this.leases.size;
  }

  /** Renews every live lease now; counts each outcome. */
  async renewAll(): Promise<Record<RenewalOutcome, number>> {
    const outcomes = await Promise.all([...this.leases].map((lease) => lease.renewNow()));
    const counts: Record<RenewalOutcome, number> = { kept: 0, stop: 0, unanswered: 0 };
    for (const outcome of outcomes) counts[outcome] += 1;
    return counts;
  }
}

/**
 * One renewal loop for the whole attempt, not only while the CLI streams: preparing the CLI,
 * flushing the outbox and sending the terminal report take time too, and on a loaded machine
 * more than a lease (the queue would then fail a finished run `timeout`). A renewal that goes
 * unanswered (the bus is away) changes nothing: the queue keeps a silent daemon's attempt for its
 * reconnect grace. A refusal that is not retryable (the attempt was given up) stops the run.
 */
export function keepAttemptLease(options: {
  readonly task: Pick<ClaimedTask, 'taskId' | 'attempt' | 'leaseToken'>;
  readonly daemonId: string;
  readonly queue: Pick<QueueClient, 'send'>;
  readonly renewEveryMs: number;
  /** Where the lease is listed while it lasts, for renewals on reconnect. */
  readonly live?: LiveAttemptLeases;
}): AttemptLease {
  const { task } = options;
  let stop: (() => Promise<void>) | undefined;
  let stopRequested = false;
  let refusal: { readonly code: string; readonly message: string } | undefined;
  const requestStop = async (): Promise<void> => {
    stopRequested = true;
    await stop?.();
  };
  const renew = async (): Promise<RenewalOutcome> => {
    let outcome: RenewalOutcome;
    try {
      const reply = await options.queue.send('task.renew', { taskId: task.taskId, attempt: task.attempt, daemonId: options.daemonId, leaseToken: task.leaseToken });
      outcome = reply.ok ? (reply.result.cancelRequested ? 'stop' : 'kept') : reply.error.retryable ? 'unanswered' : 'stop';
      if (!reply.ok && !reply.error.retryable) refusal ??= { code: reply.error.code, message: reply.error.message };
    } catch {
      return 'unanswered';
    }
    if (outcome === 'stop') await requestStop().catch(() => undefined);
    return outcome;
  };
  const renewal = setInterval(() => void renew(), options.renewEveryMs);
  const lease: AttemptLease = {
    onStopRequested(next) {
      stop = next;
      if (stopRequested) void next().catch(() => undefined);
      return () => {
        if (stop === next) stop = undefined;
      };
    },
    renewNow: renew,
    refusal: () => refusal,
    end: () => {
      clearInterval(renewal);
      unlist();
    },
  };
  const unlist = options.live?.add(lease) ?? (() => undefined);
  return lease;
}
