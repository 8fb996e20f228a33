import { z } from 'zod';

/** An ISO 8601 timestamp in a response (documented as `date-time`). */
export const timestampSchema = z.string().meta({ format: 'date-time' });

/** Path ids are opaque; anything that is not an id of the caller's workspace is a 404. */

export function isoOf(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export function isoOrNull(value: Date | string | null): string | null {
  return value === null ? null : isoOf(value);
}
