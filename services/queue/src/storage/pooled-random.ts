import { randomBytes } from 'node:crypto';

/** Bytes taken from the system's generator at once: one call per 128 lease tokens instead of one each. */
const POOL_BYTES = 4_096;

let pool = Buffer.alloc(0);
let taken = 0;

/**
 * `randomBytes(size)`, served from a pool the system's generator fills 4 KiB at a time: each call
 * to it costs a system call (tens of microseconds on a virtual machine), and a claim needs fresh
 * random bytes for every attempt it hands out. No byte is handed out twice.
 */
export function pooledRandomBytes(size: number): Buffer {
  if (size > POOL_BYTES) return randomBytes(size);
  if (taken + size > pool.length) {
    pool = randomBytes(POOL_BYTES);
    taken = 0;
  }
  const bytes = Buffer.from(pool.subarray(taken, taken + size));
  taken += size;
  return bytes;
}
