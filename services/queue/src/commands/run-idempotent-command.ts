import type { DataSource, EntityManager } from 'typeorm';
import { commandFailure, type CommandReply } from '@switchyard/contracts';
import { ConcurrencyConflictError, POSTGRES_UNIQUE_VIOLATION, postgresErrorCode, postgresErrorConstraint, withOptimisticRetry, type AlongsideStatement } from '@switchyard/event-store';
import { PROCESSED_COMMAND_KEY, ProcessedCommandStore, recordStatement } from '@switchyard/persistence';
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
 * One command, at most one effect: in a transaction, a stored first reply is returned as "already
 * applied", otherwise the command runs and its reply is stored with its effect. A concurrency
 * conflict re-runs the whole transaction on fresh state; so does a try of the same request id that
 * committed first (its reply's key is taken), and the rerun replays that reply. A stored reply
 * is only ever given to the sender that made the request: the same request id from anyone else
 * is refused `sender_mismatch` and learns nothing of it. `onCommitted` hears the task transitions
 * of the try that committed (none for a replayed reply).
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
  return withOptimisticRetry(async () => {
    const { result, transitions } = await recordingTaskTransitions(() =>
      options.dataSource
        .transaction(async (manager) => {
          const store = new ProcessedCommandStore(manager);
          const earlier = await store.find(options.requestId);
          if (earlier) return replayFor(options.sender, earlier as { sender: string | null; reply: CommandReply<TResult> }, replayedForm);
          const record = (reply: CommandReply<TResult>) => ({ requestId: options.requestId, commandType: options.commandType, sender: options.sender, reply: storedForm(reply) });
          let sentAlongside: CommandReply<TResult> | undefined;
          const reply = await options.execute(manager, {
            alongside: (replyToKeep) => {
              const statement = (first: number) => recordStatement(record(replyToKeep), first);
              if (!statement(1)) return [];
              return [
                (first) => {
                  sentAlongside = replyToKeep;
                  return statement(first) as NonNullable<ReturnType<typeof statement>>;
                },
              ];
            },
          });
          if (sentAlongside === undefined) await store.record(record(reply));
          else if (sentAlongside !== reply) throw new Error(`${options.commandType} kept another reply than it gave`);
          return reply;
        })
        .catch((error: unknown) => {
          throw isRequestTakenError(error) ? new ConcurrencyConflictError({ aggregateId: `request ${options.requestId}`, expectedVersion: 0, cause: error }) : error;
        }),
    );
    options.onCommitted?.(transitions);
    return result;
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
