import type { CommandName, CommandPayloadOf, CommandReply, CommandResultOf, DaemonCommandName } from '@switchyard/contracts';
import { sendCommand, sendCommandUntilAnswered, type MessagingConnection, type SendCommandOptions } from '@switchyard/messaging';

const RETRY_DELAY_MS = 1_000;
const TIMEOUT_MS = 10_000;

/** The queue commands a daemon sends: each on `cmd.<name>.<daemonId>`. */
export type DaemonQueueCommandName = DaemonCommandName & CommandName;

/**
 * The daemon's side of the queue's commands, through the messaging layer's typed client (replies
 * validated), each sent as this daemon: the queue reads the daemon from the subject.
 */
export class QueueClient {
  constructor(
    private readonly connection: MessagingConnection,
    private readonly daemonId: string,
  ) {}

  /** One attempt; transport failures throw (retryable ones say so). */
  send<TName extends DaemonQueueCommandName>(command: TName, payload: CommandPayloadOf<TName>, requestId?: string): Promise<CommandReply<CommandResultOf<TName>>> {
    const options = { command, payload, sender: this.daemonId, timeoutMs: TIMEOUT_MS, ...(requestId ? { requestId } : {}) } as SendCommandOptions<TName>;
    return sendCommand(this.connection, options);
  }

  /**
   * Retries with the same request id until the queue answers (the queue applies it once), for
   * reports that must not be lost: a terminal report survives a queue restart or a NATS blip.
   */
  sendUntilAnswered<TName extends DaemonQueueCommandName>(
    command: TName,
    payload: CommandPayloadOf<TName>,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<CommandReply<CommandResultOf<TName>>> {
    const sendOptions = { command, payload, sender: this.daemonId, timeoutMs: TIMEOUT_MS, ...(options.signal ? { signal: options.signal } : {}) } as SendCommandOptions<TName>;
    return sendCommandUntilAnswered(this.connection, { ...sendOptions, retryDelayMs: RETRY_DELAY_MS });
  }
}
