import type { ValueTransformer } from 'typeorm';

/**
 * pg returns bigint as a string (it may exceed 2^53). JetStream sequences and versions stay far
 * below that, so we read them as numbers and fail loudly rather than lose precision.
 */
export const safeIntegerTransformer: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => {
    if (value === null) return null;
    const parsed = Number(value);
    if (!Number.isSafeInteger(parsed)) throw new RangeError(`bigint ${value} is not a safe JavaScript integer`);
    return parsed;
  },
};
