import type { z } from 'zod';
import { COMMAND_ERROR_CODES, commandErrorSchema, type CommandErrorCode, type CommandReply } from '@switchyard/contracts';
import { DecodeError } from '../errors/messaging.errors';

/** The codes the transport itself answers with; handlers choose any `CommandErrorCode`. */
export const REPLY_ERROR_CODES = {
  /** The request payload was malformed or failed validation; resending it unchanged will fail again. */
  invalidRequest: 'invalid_request',
  /** The handler failed; the detail is in the responder's log, not in the reply. */
  internal: 'internal',
} as const satisfies Record<string, CommandErrorCode>;

/** Wire shape of every reply: the contracts' command reply (`{ ok, result }` or a coded error). */
export type ReplyEnvelope<T> = CommandReply<T>;

/**
 * Thrown by a request handler to answer with a specific code (a domain code such as `not_found`
 * or `terminal_state`); any other error answers `internal`.
 */
export class ReplyError extends Error {
  readonly code: CommandErrorCode;
  readonly retryable: boolean;

  constructor(code: CommandErrorCode, message: string, options?: { cause?: unknown; retryable?: boolean }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ReplyError';
    this.code = code;
    this.retryable = options?.retryable ?? COMMAND_ERROR_CODES[code].retryable;
  }
}

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder('utf-8', { fatal: true });

export function encodeReply<T>(envelope: ReplyEnvelope<T>): Uint8Array {
  return textEncoder.encode(JSON.stringify(envelope));
}

export function decodeReply(data: Uint8Array): ReplyEnvelope<unknown> {
  let value: unknown;
  try {
    value = JSON.parse(textDecoder.decode(data));
  } catch (error) {
    throw new DecodeError('reply is not valid JSON', error);
  }
  if (typeof value === 'object' && value !== null && 'ok' in value) {
    const candidate = value as { ok: unknown; result?: unknown; alreadyApplied?: unknown; error?: unknown };
    if (candidate.ok === true && 'result' in candidate) {
      return candidate.alreadyApplied === true ? { ok: true, result: candidate.result, alreadyApplied: true } : { ok: true, result: candidate.result };
    }
    const error = commandErrorSchema.safeParse(candidate.error);
    if (candidate.ok === false && error.success) return { ok: false, error: error.data };
  }
  throw new DecodeError('reply is not a command reply envelope');
}

/** Validates `value` with `schema` when given. */
export function parseWith<T>(value: unknown, options: { schema: z.ZodType<T> | undefined; what: string }): T {
  const { schema, what } = options;
  if (!schema) return value as T;
  const result = schema.safeParse(value);
  if (!result.success) throw new DecodeError(`${what} does not match its schema: ${result.error.message}`, result.error);
  return result.data;
}
