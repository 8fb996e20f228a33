import type { DataSource, EntityManager } from 'typeorm';
import type { CommandReply } from '@switchyard/contracts';
import { withOptimisticRetry } from '@switchyard/event-store';
import { ProcessedCommandStore } from '@switchyard/persistence';

/** Tries per command when another writer changed the same task between load and append. */
const CONFLICT_ATTEMPTS = 5;

/**
 * One command, at most one effect: in a transaction, the request id is locked, a stored first
 * reply is returned as "already applied", otherwise the command runs and its reply is stored with
 * its effect. A concurrency conflict re-runs the whole transaction on fresh state.
 */
export function runIdempotentCommand<TResult>(options: {
  readonly dataSource: DataSource;
  readonly requestId: string;
  readonly commandType: string;
  readonly execute: (manager: EntityManager) => Promise<CommandReply<TResult>>;
  /** What is kept of the reply (e.g. without secrets), and how a kept one is replayed. */
  readonly storedForm?: (reply: CommandReply<TResult>) => CommandReply<TResult>;
  readonly replayedForm?: (reply: CommandReply<TResult>) => CommandReply<TResult>;
}): Promise<CommandReply<TResult>> {
  const storedForm = options.storedForm ?? ((reply) => reply);
  const replayedForm = options.replayedForm ?? ((reply) => reply);
  return withOptimisticRetry(
    () =>
      options.dataSource.transaction(async (manager) => {
        const store = new ProcessedCommandStore(manager);
        await store.lock(options.requestId);
        const earlier = (await store.find(options.requestId)) as CommandReply<TResult> | undefined;
        if (earlier) return earlier.ok ? { ...replayedForm(earlier), alreadyApplied: true } : earlier;
        const reply = await options.execute(manager);
        await store.record({ requestId: options.requestId, commandType: options.commandType, reply: storedForm(reply) });
        return reply;
      }),
    { attempts: CONFLICT_ATTEMPTS },
  );
}
