import type { CommandName, CommandPayloadOf, CommandReply, CommandResultOf } from '@switchyard/contracts';
import { sendCommand, sendCommandUntilAnswered, type MessagingConnection } from '@switchyard/messaging';

const RETRY_DELAY_MS = 1_000;
const TIMEOUT_MS = 10_000;

/** The daemon's side of the queue's commands, through the messaging layer's typed client (replies validated). */
export class QueueClient {
  constructor(private readonly connection: MessagingConnection) {}

  /** One attempt; transport failures throw (retryable ones say so). */
  send<TName extends CommandName>(command: TName, payload: CommandPayloadOf<TName>, requestId?: string): Promise<CommandReply<CommandResultOf<TName>>> {
    return sendCommand(this.connection, { command, payload, timeoutMs: TIMEOUT_MS, ...(requestId ? { requestId } : {}) });
  }

  /**
   * Retries with the same request id until the queue answers (the queue applies it once), for
   * reports that must not be lost: a terminal report survives a queue restart or a NATS blip.
   */
  sendUntilAnswered<TName extends CommandName>(
    command: TName,
    payload: CommandPayloadOf<TName>,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<CommandReply<CommandResultOf<TName>>> {
    return sendCommandUntilAnswered(this.connection, { command, payload, timeoutMs: TIMEOUT_MS, retryDelayMs: RETRY_DELAY_MS, ...(options.signal ? { signal: options.signal } : {}) });
  }
}
