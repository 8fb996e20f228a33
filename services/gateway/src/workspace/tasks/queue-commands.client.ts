import { Inject, Injectable } from '@nestjs/common';
import { uuidv7, type CommandError, type CommandName, type CommandPayloadOf, type CommandResultOf, type ServiceCommandName } from '@switchyard/contracts';
import { MESSAGING_CONNECTION, RequestFailedError, sendCommand, sleep, type MessagingConnection, type SendCommandOptions } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG, GATEWAY_LOGGER } from '../../gateway.injection-keys';
import { ApiError } from '../common/api-error';

const ATTEMPTS = 2;
const RETRY_DELAY_MS = 250;

/** The queue's refusal as the API's error: one exhaustive switch for this edge. */
export function apiErrorOfCommandError(error: CommandError): ApiError {
  const message = `the queue refused: ${error.message}`;
  switch (error.code) {
    case 'invalid_request':
      return new ApiError('invalid_request', message);
    case 'not_found':
      return new ApiError('not_found', message);
    case 'conflict':
      return new ApiError('conflict', message);
    case 'terminal_state':
      return new ApiError('terminal_state', message);
    case 'stale_attempt':
      return new ApiError('stale_attempt', message);
    // The request id (from the caller's Idempotency-Key) was used by another sender: not this caller's to replay.
    case 'sender_mismatch':
      return new ApiError('conflict', message);
    case 'unavailable':
      return new ApiError('queue_unavailable', message);
    case 'internal':
      return new ApiError('queue_error', message);
  }
}

export interface CommandOutcome<TName extends CommandName> {
  readonly result: CommandResultOf<TName>;
  /** The request id was seen before: this is the first outcome, replayed. */
  readonly alreadyApplied: boolean;
}

/** The queue commands the gateway sends: the services' (`cmd.<name>`, no sender token). */
export type GatewayCommandName = ServiceCommandName & CommandName;

/**
 * Sends task commands to the queue over NATS request/reply. A timeout is retried once with the
 * same request id (the queue answers a repeat with the first outcome); no answer at all is a 503.
 */
@Injectable()
export class QueueCommandsClient {
  constructor(
    @Inject(MESSAGING_CONNECTION) private readonly connection: MessagingConnection,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
  ) {}

  async send<TName extends GatewayCommandName>(
    command: TName,
    payload: CommandPayloadOf<TName>,
    options: { readonly requestId?: string } = {},
  ): Promise<CommandOutcome<TName>> {
    // Input was validated against stricter API schemas; a violation here is a gateway defect (500).
    const requestId = options.requestId ?? uuidv7();
    for (let attempt = 1; ; attempt += 1) {
      try {
        const reply = await sendCommand(this.connection, { command, payload, requestId, timeoutMs: this.config.GATEWAY_QUEUE_TIMEOUT_MS } as SendCommandOptions<TName>);
        if (!reply.ok) throw apiErrorOfCommandError(reply.error);
        return { result: reply.result, alreadyApplied: reply.alreadyApplied === true };
      } catch (error) {
        if (error instanceof ApiError) throw error;
        if (error instanceof RequestFailedError && error.isRetryable && attempt < ATTEMPTS) {
          await sleep(RETRY_DELAY_MS);
          continue;
        }
        this.logger.warn({ event: 'queue_command_failed', command, requestId, err: error }, `${command} did not reach the queue`);
        if (error instanceof RequestFailedError) throw new ApiError('queue_unavailable', `the queue did not answer ${command}; retry later`);
        throw new ApiError('queue_error', `the queue's answer to ${command} could not be read`);
      }
    }
  }
}
