/** What every technical error carries besides its message (style: `isRetryable` and `cause`). */
export interface TechnicalErrorOptions {
  readonly isRetryable: boolean;
  readonly cause?: unknown;
}

/** Base of the libraries' errors: a code from the library's `as const` table, retryability, cause. */
export abstract class TechnicalError<TCode extends string> extends Error {
  readonly code: TCode;
  readonly isRetryable: boolean;

  constructor(code: TCode, message: string, options: TechnicalErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.isRetryable = options.isRetryable;
  }
}
