import { TechnicalError, type TechnicalErrorOptions } from '@switchyard/contracts';
/** Codes of every technical error raised by `@switchyard/messaging`. */
export const MESSAGING_ERROR_CODES = {
  notReady: 'not_ready',
  publishFailed: 'publish_failed',
  publishRejected: 'publish_rejected',
  wrongLastSequence: 'wrong_last_sequence',
  provisioningFailed: 'provisioning_failed',
  invalidDefinition: 'invalid_definition',
  decodeFailed: 'decode_failed',
  requestFailed: 'request_failed',
  remoteError: 'remote_error',
  permanent: 'permanent',
} as const;

export type MessagingErrorCode = (typeof MESSAGING_ERROR_CODES)[keyof typeof MESSAGING_ERROR_CODES];

export type MessagingErrorOptions = TechnicalErrorOptions;

/** Base of every error this library throws: a code, whether retrying can help, and the cause. */
export class MessagingError extends TechnicalError<MessagingErrorCode> {}

/** NATS is closed, unreachable, or JetStream does not answer. */
export class MessagingNotReadyError extends MessagingError {
  constructor(message: string, cause?: unknown) {
    super(MESSAGING_ERROR_CODES.notReady, message, { isRetryable: true, cause });
  }
}

/** A publish was not acknowledged after every retry, or was rejected by the server. */
export class PublishError extends MessagingError {
  readonly subject: string;
  readonly attempts: number;

  constructor(options: {
    code: MessagingErrorCode;
    subject: string;
    attempts: number;
    isRetryable: boolean;
    cause?: unknown;
  }) {
    super(options.code, `publish to ${options.subject} failed after ${options.attempts} attempt(s): ${describeCause(options.cause)}`, {
      isRetryable: options.isRetryable,
      cause: options.cause,
    });
    this.subject = options.subject;
    this.attempts = options.attempts;
  }
}

/** Creating or updating a stream or consumer failed (e.g. an immutable field changed). */
export class ProvisioningError extends MessagingError {
  constructor(message: string, options: MessagingErrorOptions) {
    super(MESSAGING_ERROR_CODES.provisioningFailed, message, options);
  }
}

/** A stream or consumer definition is invalid; fix the code, retrying cannot help. */
export class InvalidDefinitionError extends MessagingError {
  constructor(message: string) {
    super(MESSAGING_ERROR_CODES.invalidDefinition, message, { isRetryable: false });
  }
}

/** A payload could not be decoded or failed its schema: a poison message. */
export class DecodeError extends MessagingError {
  constructor(message: string, cause?: unknown) {
    super(MESSAGING_ERROR_CODES.decodeFailed, message, { isRetryable: false, cause });
  }
}

/**
 * Thrown by a handler when retrying cannot help (bad data, violated invariant): the consumer sends
 * the message to the dead-letter subject at once instead of redelivering it.
 */
export class PermanentError extends MessagingError {
  constructor(message: string, cause?: unknown) {
    super(MESSAGING_ERROR_CODES.permanent, message, { isRetryable: false, cause });
  }
}

/** A request got no reply in time, had no responder, or the connection failed. */
export class RequestFailedError extends MessagingError {
  readonly subject: string;

  constructor(subject: string, message: string, options: MessagingErrorOptions) {
    super(MESSAGING_ERROR_CODES.requestFailed, `request to ${subject} failed: ${message}`, options);
    this.subject = subject;
  }
}

/** The responder answered with an error reply; `replyCode` is its code (e.g. `invalid_request`). */
export class RemoteRequestError extends MessagingError {
  readonly subject: string;
  readonly replyCode: string;

  constructor(options: { subject: string; replyCode: string; message: string; isRetryable: boolean }) {
    super(MESSAGING_ERROR_CODES.remoteError, `request to ${options.subject} failed with ${options.replyCode}: ${options.message}`, {
      isRetryable: options.isRetryable,
    });
    this.subject = options.subject;
    this.replyCode = options.replyCode;
  }
}

/** Whether an error says retrying may help; errors without the flag count as retryable. */
export function isRetryableError(error: unknown): boolean {
  if (typeof error === 'object' && error !== null && 'isRetryable' in error) {
    return error.isRetryable !== false;
  }
  return true;
}

export function describeCause(cause: unknown): string {
  if (cause instanceof Error) return `${cause.name}: ${cause.message}`;
  return String(cause);
}
