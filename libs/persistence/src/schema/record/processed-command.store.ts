import type { EntityManager } from 'typeorm';
import type { CommandReply } from '@switchyard/contracts';

/** A command already processed: its first reply, and who sent it (null: a service). */
export interface ProcessedCommand {
  readonly sender: string | null;
  readonly reply: CommandReply<unknown>;
}

/** The primary key of `processed_command`: a second record of one request id violates it. */
export const PROCESSED_COMMAND_KEY = 'processed_command_pkey';

/**
 * The first reply to each request id, kept so a retried command (its reply was lost) gets the
 * same outcome instead of a second effect. Call inside the command's transaction. Two tries of one
 * request id racing each other are told apart by the key: the later `record` waits for the first
 * transaction and then fails on `PROCESSED_COMMAND_KEY`, and the caller runs its transaction again,
 * where `find` sees the first reply. No lock is taken first: it would cost every command a round
 * trip to Postgres for a race that is rare.
 */
export class ProcessedCommandStore {
  constructor(private readonly manager: EntityManager) {}

  async find(requestId: string): Promise<ProcessedCommand | undefined> {
    const [row] = await this.manager.query<Array<{ sender: string | null; reply: CommandReply<unknown> }>>('select sender, reply from processed_command where request_id = $1', [requestId]);
    return row ? { sender: row.sender, reply: row.reply } : undefined;
  }

  /** Retryable failures are not kept (false): the retry deserves a fresh chance. */
  async record(options: RecordOptions): Promise<boolean> {
    const statement = recordStatement(options, 1);
    if (!statement) return false;
    await this.manager.query(statement.sql, statement.parameters);
    return true;
  }
}

interface RecordOptions {
  readonly requestId: string;
  readonly commandType: string;
  readonly sender: string | null;
  readonly reply: CommandReply<unknown>;
}

/**
 * `ProcessedCommandStore.record` as a statement with parameters from `first` on, for a caller that
 * sends it with its own write; undefined for a reply that is not kept.
 */
export function recordStatement(options: RecordOptions, first: number): { readonly sql: string; readonly parameters: readonly unknown[] } | undefined {
  if (!isKeptReply(options.reply)) return undefined;
  return {
    sql: `insert into processed_command (request_id, command_type, sender, reply) values ($${first}, $${first + 1}, $${first + 2}, $${first + 3}::jsonb)`,
    parameters: [options.requestId, options.commandType, options.sender, JSON.stringify(options.reply)],
  };
}

/** Whether a reply is kept at all: a retryable failure is not, so the retry gets a fresh chance. */
export function isKeptReply(reply: CommandReply<unknown>): boolean {
  return reply.ok || !reply.error.retryable;
}
