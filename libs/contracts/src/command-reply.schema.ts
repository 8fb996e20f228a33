import { z } from 'zod';

/** Reply error codes; `retryable` is the default a caller may rely on when retrying with the same request id. */
export const COMMAND_ERROR_CODES = {
  invalid_request: { retryable: false },
  not_found: { retryable: false },
  /** The command contradicts current state, e.g. another daemon holds the lease. */
  conflict: { retryable: false },
  /** The task is already completed, failed or cancelled: terminal is final. */
  terminal_state: { retryable: false },
  /** The report names an attempt that is no longer current; the sender should stop working on it. */
  stale_attempt: { retryable: false },
  /**
   * The request is not the sender's to make: its payload names another daemon than the one its
   * subject names, it repeats a request id another sender used, or it reports on an attempt the
   * sender does not hold (another daemon holds it, or the report lacks that attempt's lease token).
   * Nothing was changed or replayed.
   */
  sender_mismatch: { retryable: false },
  unavailable: { retryable: true },
  /** Safe to retry: the request id makes the retry idempotent. */
  internal: { retryable: true },
} as const;

export type CommandErrorCode = keyof typeof COMMAND_ERROR_CODES;
export const commandErrorCodeSchema = z.enum(
  Object.keys(COMMAND_ERROR_CODES) as [CommandErrorCode, ...CommandErrorCode[]],
);

export interface CommandError {
  code: CommandErrorCode;
  message: string;
  retryable: boolean;
}
export const commandErrorSchema = z.object({
  code: commandErrorCodeSchema,
  message: z.string(),
  retryable: z.boolean(),
});

export interface CommandSuccess<TResult> {
  ok: true;
  result: TResult;
  /** True when the request id was seen before and this is the first outcome, replayed. */
  alreadyApplied?: boolean;
}

export interface CommandFailure {
  ok: false;
  error: CommandError;
}

export type CommandReply<TResult> = CommandSuccess<TResult> | CommandFailure;

export function commandReplySchema<TResult extends z.ZodType>(result: TResult) {
  return z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), result, alreadyApplied: z.boolean().optional() }),
    z.object({ ok: z.literal(false), error: commandErrorSchema }),
  ]);
}

export function commandSuccess<TResult>(
  result: TResult,
  options: { alreadyApplied?: boolean } = {},
): CommandSuccess<TResult> {
  if (options.alreadyApplied === undefined) return { ok: true, result };
  return { ok: true, result, alreadyApplied: options.alreadyApplied };
}

export function commandFailure(code: CommandErrorCode, message: string, retryable?: boolean): CommandFailure {
  return { ok: false, error: { code, message, retryable: retryable ?? COMMAND_ERROR_CODES[code].retryable } };
}
