import {
  COMMAND_CATALOG,
  SESSION_COMMAND_CATALOG,
  createCommand,
  subjects,
  uuidv7,
  type CommandName,
  type CommandPayloadOf,
  type CommandResultOf,
  type DaemonCommandName,
  type ResumeDecision,
  type SessionResolvePayload,
} from '@switchyard/contracts';
import { sleep } from '../backoff/retry-backoff';
import type { MessagingConnection } from '../connection/messaging.connection';
import { isRetryableError } from '../errors/messaging.errors';
import { requestReply } from './request-reply';
import type { ReplyEnvelope } from './reply.envelope';
import { taskAttributesOf } from '../tracing/messaging.spans';

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * A daemon-sent command names its sender (the daemon's id, the last token of its subject); a
 * service-sent one cannot. A daemon-sent command without a sender does not type-check.
 */
export type CommandSenderOption<TName extends CommandName> = TName extends DaemonCommandName ? { readonly sender: string } : { readonly sender?: never };

export type SendCommandOptions<TName extends CommandName> = {
  readonly command: TName;
  readonly payload: CommandPayloadOf<TName>;
  readonly requestId?: string;
  readonly timeoutMs?: number;
} & CommandSenderOption<TName>;

/** The subject of a command sent with these options. */
function commandSubjectOf(command: CommandName, sender: string | undefined): string {
  const build = subjects.command as (name: CommandName, sender?: string) => string;
  return sender === undefined ? build(command) : build(command, sender);
}

/**
 * The one client of the contracts' commands: builds the envelope with `createCommand` (a payload
 * outside the contract throws), sends it with its request id, and validates the reply's result
 * against the command's result schema (an answer outside the contract is a `DecodeError`, never
 * trusted). An error reply is returned; transport failures throw `RequestFailedError`.
 */
export async function sendCommand<TName extends CommandName>(connection: MessagingConnection, options: SendCommandOptions<TName>): Promise<ReplyEnvelope<CommandResultOf<TName>>> {
  const envelope = createCommand({ command: options.command, payload: options.payload, ...(options.requestId ? { requestId: options.requestId } : {}) }) as { requestId: string };
  return requestReply<unknown, CommandResultOf<TName>>(connection, {
    subject: commandSubjectOf(options.command, options.sender),
    data: envelope,
    requestId: envelope.requestId,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    responseSchema: COMMAND_CATALOG[options.command].result as never,
    spanAttributes: taskAttributesOf(options.payload),
  });
}

/**
 * Sends with one request id until the responder answers (it applies a request id once), for
 * reports that must not be lost across a responder restart or a NATS blip. A retryable error
 * reply or transport failure waits `retryDelayMs` and tries again; `signal` ends the wait.
 */
export async function sendCommandUntilAnswered<TName extends CommandName>(
  connection: MessagingConnection,
  options: SendCommandOptions<TName> & { readonly retryDelayMs: number; readonly signal?: AbortSignal },
): Promise<ReplyEnvelope<CommandResultOf<TName>>> {
  const requestId = uuidv7();
  for (;;) {
    try {
      const attempt = { command: options.command, payload: options.payload, sender: options.sender, requestId, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) } as SendCommandOptions<TName>;
      const reply = await sendCommand(connection, attempt);
      if (reply.ok || !reply.error.retryable) return reply;
    } catch (error) {
      if (!isRetryableError(error)) throw error;
    }
    if (options.signal?.aborted) throw new Error(`${options.command} not answered before shutdown`);
    await sleep(options.retryDelayMs);
  }
}

/**
 * Asks the session-resume service which session a task continues (`session.resolve`, on
 * `cmd.session.resolve.<sender>`: the asking daemon), validating both ways.
 */
export async function sendSessionResolve(
  connection: MessagingConnection,
  options: { readonly sender: string; readonly payload: SessionResolvePayload; readonly correlationId?: string; readonly timeoutMs?: number },
): Promise<ReplyEnvelope<ResumeDecision>> {
  const definition = SESSION_COMMAND_CATALOG['session.resolve'];
  const requestId = uuidv7();
  const envelope = definition.request.parse({ requestId, command: 'session.resolve', schemaVersion: 1, correlationId: options.correlationId ?? requestId, payload: options.payload });
  return requestReply<unknown, ResumeDecision>(connection, {
    subject: subjects.command('session.resolve', options.sender),
    data: envelope,
    requestId,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    responseSchema: definition.result,
    spanAttributes: taskAttributesOf(options.payload),
  });
}
