/** An error the API answered (`{ error: { code, message, details? } }`), or a request that never got an answer. */
export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** What a page shows of an error: the API's own message, with its code. */
export function describeError(error: unknown): string {
  if (error instanceof ApiRequestError) return `${error.message} (${error.code})`;
  return error instanceof Error ? error.message : String(error);
}
