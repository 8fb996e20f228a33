import { commandFailure, isDaemonCommand, type CommandFailure, type CommandName } from '@switchyard/contracts';

/**
 * Whether a daemon-sent command is its sender's to make. The sender is the daemon id the transport
 * read from the subject (`cmd.<name>.<daemonId>`), which NATS permissions vouch for; a payload that
 * still names a `daemonId` must name that daemon. Undefined: go on, with the sender as the daemon.
 */
export function senderRefusal(name: CommandName, payload: unknown, sender: string | undefined): CommandFailure | undefined {
  if (!isDaemonCommand(name)) return undefined;
  if (sender === undefined) return commandFailure('sender_mismatch', `${name} is sent by a daemon, and this one names none`);
  const named = (payload as { daemonId?: unknown }).daemonId;
  if (named !== undefined && named !== sender) return commandFailure('sender_mismatch', `${name} from daemon ${sender} names daemon ${JSON.stringify(named)}`);
  return undefined;
}

/** The payload as the handlers read it: a daemon-sent command's daemon is its sender. */
export function withSenderAsDaemon<TPayload>(name: CommandName, payload: TPayload, sender: string | undefined): TPayload {
  if (!isDaemonCommand(name) || sender === undefined) return payload;
  return { ...payload, daemonId: sender };
}
