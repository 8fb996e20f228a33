import type { EntityManager } from 'typeorm';
import type { CommandReply } from '@switchyard/contracts';
import { ProcessedCommandEntity } from './processed-command.entity';

/** A command already processed: its first reply, and who sent it (null: a service). */
export interface ProcessedCommand {
  readonly sender: string | null;
  readonly reply: CommandReply<unknown>;
}

/**
 * The first reply to each request id, kept so a retried command (its reply was lost) gets the
 * same outcome instead of a second effect. Call inside the command's transaction.
 */
export class ProcessedCommandStore {
  constructor(private readonly manager: EntityManager) {}

  /** Serializes concurrent retries of one request id for the rest of the transaction. */
  async lock(requestId: string): Promise<void> {
    await this.manager.query('select pg_advisory_xact_lock(hashtextextended($1, 7))', [requestId]);
  }

  async find(requestId: string): Promise<ProcessedCommand | undefined> {
    const row = await this.manager.getRepository(ProcessedCommandEntity).findOneBy({ requestId });
    return row ? { sender: row.sender, reply: row.reply as CommandReply<unknown> } : undefined;
  }

  /** Retryable failures are not kept: the retry deserves a fresh chance. */
  async record(options: { requestId: string; commandType: string; sender: string | null; reply: CommandReply<unknown> }): Promise<void> {
    if (!options.reply.ok && options.reply.error.retryable) return;
    await this.manager.getRepository(ProcessedCommandEntity).insert({
      requestId: options.requestId,
      commandType: options.commandType,
      sender: options.sender,
      reply: options.reply,
    });
  }
}
