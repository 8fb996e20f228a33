import { randomFillSync } from 'node:crypto';

const UUIDV7_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const MAXIMUM_COUNTER = 0xfff;
const MAXIMUM_TIMESTAMP = 2 ** 48 - 1;
const ENTROPY_POOL_BYTES = 4096;

/**
 * Random bytes served from a pool refilled a page at a time: one call into the CSPRNG per ~400 ids
 * instead of one per id, which showed in a busy daemon's profile (an event id per agent message).
 */
function pooledRandom(): (size: number) => Uint8Array {
  const pool = Buffer.alloc(ENTROPY_POOL_BYTES);
  let offset = ENTROPY_POOL_BYTES;
  return (size) => {
    if (size > ENTROPY_POOL_BYTES) return randomFillSync(Buffer.alloc(size));
    if (offset + size > ENTROPY_POOL_BYTES) {
      randomFillSync(pool);
      offset = 0;
    }
    // A copy: the pool is overwritten on the next refill.
    const bytes = Buffer.from(pool.subarray(offset, offset + size));
    offset += size;
    return bytes;
  };
}

export interface Uuidv7GeneratorOptions {
  /** Milliseconds since the Unix epoch; injectable so tests can pin the clock. */
  now?: () => number;
  random?: (size: number) => Uint8Array;
}

/**
 * RFC 9562 UUIDv7 with a 12-bit counter in `rand_a` (method 1), so ids made by one generator sort
 * in creation order even within one millisecond or when the wall clock steps back.
 */
export function createUuidv7Generator(options: Uuidv7GeneratorOptions = {}): () => string {
  const now = options.now ?? Date.now;
  const random = options.random ?? pooledRandom();
  let lastTimestamp = -1;
  let counter = 0;

  return () => {
    const entropy = Buffer.from(random(10));
    let timestamp = Math.max(0, Math.min(Math.floor(now()), MAXIMUM_TIMESTAMP));
    if (timestamp > lastTimestamp) {
      // Seed the counter in the lower half so many ids fit in the same millisecond.
      counter = entropy.readUInt16BE(0) & 0x7ff;
    } else {
      timestamp = lastTimestamp;
      counter += 1;
      if (counter > MAXIMUM_COUNTER) {
        // Borrow the next millisecond rather than break ordering.
        timestamp += 1;
        counter = 0;
      }
    }
    lastTimestamp = timestamp;

    const bytes = Buffer.alloc(16);
    bytes.writeUIntBE(timestamp, 0, 6);
    bytes.writeUInt16BE(0x7000 | counter, 6);
    entropy.copy(bytes, 8, 2, 10);
    bytes.writeUInt8((bytes.readUInt8(8) & 0x3f) | 0x80, 8);
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}

/** Process-wide generator: ids from one process are strictly increasing. */
export const uuidv7: () => string = createUuidv7Generator();

export function isUuidv7(value: unknown): value is string {
  return typeof value === 'string' && UUIDV7_PATTERN.test(value);
}

/** The millisecond timestamp embedded in a UUIDv7. */
export function uuidv7Timestamp(id: string): Date {
  if (!isUuidv7(id)) throw new TypeError(`Not a UUIDv7: ${JSON.stringify(id)}`);
  return new Date(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16));
}
