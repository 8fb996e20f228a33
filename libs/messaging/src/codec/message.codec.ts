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
    decode: (data) => {
      const result = schema.safeParse(parseJson(data));
      if (!result.success) {
        throw new DecodeError(`payload does not match its schema: ${result.error.message}`, result.error);
      }
      return result.data;
    },
  };
}

function parseJson(data: Uint8Array): unknown {
  try {
    return JSON.parse(textDecoder.decode(data)) as unknown;
  } catch (error) {
    throw new DecodeError(`payload is not valid JSON: ${(error as Error).message}`, error);
  }
}
