import type { z } from 'zod';
import { DecodeError } from '../errors/messaging.errors';

/** How a payload travels: callers bring their own or derive one from a zod schema. */
export interface MessageCodec<T> {
  encode(value: T): Uint8Array;
  /** Throws `DecodeError` for bytes that are not a valid `T`. */
  decode(data: Uint8Array): T;
}

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder('utf-8', { fatal: true });

/** JSON without validation: decode returns whatever the JSON holds. */
export function jsonCodec<T = unknown>(): MessageCodec<T> {
  return {
    encode: (value) => textEncoder.encode(JSON.stringify(value)),
    decode: (data) => parseJson(data) as T,
  };
}

/** JSON validated by a zod schema on decode. */
export function zodCodec<Schema extends z.ZodType>(schema: Schema): MessageCodec<z.output<Schema>> {
  return {
    encode: (value) => textEncoder.encode(JSON.stringify(value)),
    decode: (data) => checked(schema, parseJson(data)),
  };
}

/** JSON text validated by a zod schema; throws `DecodeError` like a codec's `decode`. */
export function decodeJsonText<Schema extends z.ZodType>(text: string, schema: Schema): z.output<Schema> {
  return checked(schema, parseJsonText(text));
}

function checked<Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new DecodeError(`payload does not match its schema: ${summarizeIssues(result.error.issues)}`, result.error);
  }
  return result.data;
}

/** One line for logs and dead-letter headers: the first few problems, each with its path. */
function summarizeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, 3).map((issue) => `${issue.path.length === 0 ? '(root)' : issue.path.join('.')}: ${issue.message}`);
  return issues.length > shown.length ? `${shown.join('; ')}; and ${issues.length - shown.length} more` : shown.join('; ');
}

function parseJson(data: Uint8Array): unknown {
  let text: string;
  try {
    text = textDecoder.decode(data);
  } catch (error) {
    throw new DecodeError(`payload is not valid UTF-8: ${(error as Error).message}`, error);
  }
  return parseJsonText(text);
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new DecodeError(`payload is not valid JSON: ${(error as Error).message}`, error);
  }
}
