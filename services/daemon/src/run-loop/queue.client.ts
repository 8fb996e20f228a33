import { createCommand, subjects, uuidv7, type CommandName, type CommandPayloadOf, type CommandReply, type CommandResultOf } from '@switchyard/contracts';
import { isRetryableError, requestReply, type MessagingConnection } from '@switchyard/messaging';

const RETRY_DELAY_MS = 1_000;

/** The daemon's side of the queue's commands. */
export class QueueClient {
  constructor(private readonly connection: MessagingConnection) {}

  /** One attempt; transport failures throw (retryable ones say so). */
  async send<TName extends CommandName>(command: TName, payload: CommandPayloadOf<TName>, requestId = uuidv7()): Promise<CommandReply<CommandResultOf<TName>>> {
    const envelope = createCommand({ command, payload, requestId }) as { requestId: string };
    return requestReply<unknown, CommandResultOf<TName>>(this.connection, { subject: subjects.command(command), data: envelope, requestId: envelope.requestId, timeoutMs: 10_000 });
  }

  /**
   * Retries with the same request id until the queue answers (the queue applies it once), for
   * reports that must not be lost: a terminal report survives a queue restart or a NATS blip.
   */
  async sendUntilAnswered<TName extends CommandName>(
    command: TName,
    payload: CommandPayloadOf<TName>,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<CommandReply<CommandResultOf<TName>>> {
    const requestId = uuidv7();
    for (;;) {
      try {
        const reply = await this.send(command, payload, requestId);
        if (reply.ok || !reply.error.retryable) return reply;
      } catch (error) {
        if (!isRetryableError(error)) throw error;
      }
      if (options.signal?.aborted) throw new Error(`${command} not answered before shutdown`);
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    }
  }
}
