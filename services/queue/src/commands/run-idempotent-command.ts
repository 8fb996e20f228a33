import type { DataSource, EntityManager } from 'typeorm';
import { commandFailure, type CommandReply } from '@switchyard/contracts';
import { ConcurrencyConflictError, POSTGRES_UNIQUE_VIOLATION, postgresErrorCode, postgresErrorConstraint, withOptimisticRetry, type AlongsideStatement } from '@switchyard/event-store';
import { PROCESSED_COMMAND_KEY, ProcessedCommandStore, isKeptReply, recordStatement, type ProcessedCommand } from '@switchyard/persistence';
import { recordingTaskTransitions, type TaskTransition } from '../storage/task-transitions';

/**
 * Lets a command keep its reply with its own write, one statement fewer: `alongside(reply)` is
 * sent with the command's events (see `AlongsideStatement`), and the command must then return
 * that very reply. When it is not sent (no events were written), the runner records the reply.
 */
export interface ReplyRecord<TResult> {
  alongside(reply: CommandReply<TResult>): AlongsideStatement[];
}

/** Tries per command when another writer changed the same task between load and append. */
const CONFLICT_ATTEMPTS = 5;

/**
 * One command, at most one effect: in a transaction, the command runs and its reply is stored with
 * its effect, under its request id. A request id seen before (a retry whose first reply was lost,
 * or two tries racing) cannot store its reply again: the key is taken, the transaction is undone,
 * and the rerun returns the stored first reply as "already applied". The common first try thus
 * spends no read on looking for an earlier reply; a repeat costs one wasted try. A concurrency
 * conflict re-runs the whole transaction on fresh state too. A stored reply is only ever given to
 * the sender that made the request: the same request id from anyone else is refused
 * `sender_mismatch` and learns nothing of it. `onCommitted` hears the task transitions of the try
 * that committed (none for a replayed reply).
 */
export function runIdempotentCommand<TResult>(options: {
  readonly dataSource: DataSource;
  readonly requestId: string;
  readonly commandType: string;
  /** The daemon that sent a daemon-sent command (read from its subject); null for a service's. */
  readonly sender: string | null;
  readonly execute: (manager: EntityManager, replyRecord: ReplyRecord<TResult>) => Promise<CommandReply<TResult>>;
  /** What is kept of the reply (e.g. without secrets), and how a kept one is replayed. */
  readonly storedForm?: (reply: CommandReply<TResult>) => CommandReply<TResult>;
  readonly replayedForm?: (reply: CommandReply<TResult>) => CommandReply<TResult>;
  readonly onCommitted?: (transitions: readonly TaskTransition[]) => void;
}): Promise<CommandReply<TResult>> {
  const storedForm = options.storedForm ?? ((reply) => reply);
  const replayedForm = options.replayedForm ?? ((reply) => reply);
  const replayOf = (earlier: ProcessedCommand): CommandReply<TResult> =>
    replayFor(options.sender, earlier as { sender: string | null; reply: CommandReply<TResult> }, replayedForm);
  return withOptimisticRetry(async (attempt) => {
    // The first try does not look for a stored reply: a request id seen before fails its record on
    // the key, and the rerun finds that reply. What the first try answers without keeping it (a
    // thrown refusal, a retryable failure) gives way to a stored reply too.
    const looksFirst = attempt > 1;
    let outcome: { readonly result: CommandReply<TResult>; readonly transitions: readonly TaskTransition[] };
    try {
      outcome = await recordingTaskTransitions(() =>
        options.dataSource
          .transaction(async (manager) => {
            const store = new ProcessedCommandStore(manager);
            const earlier = looksFirst ? await store.find(options.requestId) : undefined;
            if (earlier) return replayOf(earlier);
            const record = (reply: CommandReply<TResult>) => ({ requestId: options.requestId, commandType: options.commandType, sender: options.sender, reply: storedForm(reply) });
            let sentAlongside: CommandReply<TResult> | undefined;
            const reply = await options.execute(manager, {
              alongside: (replyToKeep) => {
                if (!isKeptReply(replyToKeep)) return [];
                // Its stored form (a claim's lease tokens sealed) is built once, when the statement is.
                return [
                  (first) => {
                    sentAlongside = replyToKeep;
                    return recordStatement(record(replyToKeep), first) as NonNullable<ReturnType<typeof recordStatement>>;
                  },
                ];
              },
            });
            if (sentAlongside !== undefined) {
              if (sentAlongside !== reply) throw new Error(`${options.commandType} kept another reply than it gave`);
              return reply;
            }
            if (await store.record(record(reply))) return reply;
            const stored = looksFirst ? undefined : await store.find(options.requestId);
            return stored ? replayOf(stored) : reply;
          })
          .catch((error: unknown) => {
            throw isRequestTakenError(error) ? new ConcurrencyConflictError({ aggregateId: `request ${options.requestId}`, expectedVersion: 0, cause: error }) : error;
          }),
      );
    } catch (error) {
      if (looksFirst || error instanceof ConcurrencyConflictError) throw error;
      const stored = await new ProcessedCommandStore(options.dataSource.manager).find(options.requestId);
      if (!stored) throw error;
      return replayOf(stored);
    }
    options.onCommitted?.(outcome.transitions);
    return outcome.result;
  }, { attempts: CONFLICT_ATTEMPTS });
}

function replayFor<TResult>(
  sender: string | null,
  earlier: { readonly sender: string | null; readonly reply: CommandReply<TResult> },
  replayedForm: (reply: CommandReply<TResult>) => CommandReply<TResult>,
): CommandReply<TResult> {
  if (earlier.sender !== sender) return commandFailure('sender_mismatch', 'this request id was used by another sender');
  if (!earlier.reply.ok) return earlier.reply;
  const replayed = replayedForm(earlier.reply);
  return replayed.ok ? { ...replayed, alreadyApplied: true } : replayed;
}

/** Another try of the same request id committed its reply while this one ran. */
function isRequestTakenError(error: unknown): boolean {
  return postgresErrorCode(error) === POSTGRES_UNIQUE_VIOLATION && postgresErrorConstraint(error) === PROCESSED_COMMAND_KEY;
}
