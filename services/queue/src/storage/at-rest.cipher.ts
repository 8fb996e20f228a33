import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto';
import { pooledRandomBytes } from './pooled-random';

const SEALED_PREFIX = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Derived keys by secret and purpose: a claim seals a lease token per attempt, with the same key. */
const derivedKeys = new Map<string, Buffer>();

/** A key per purpose, derived from the queue's secret, so no sealed value is another's input. */
function sealingKey(secret: string, purpose: string): Buffer {
  const cacheKey = `${purpose}\u0000${secret}`;
  let key = derivedKeys.get(cacheKey);
  if (!key) {
    key = createHmac('sha256', secret).update(`switchyard ${purpose} at rest`).digest();
    derivedKeys.set(cacheKey, key);
  }
  return key;
}

/**
 * What the queue keeps of a secret it must give back later (AES-256-GCM): reading it takes the
 * queue's secret (`QUEUE_TASK_TOKEN_SECRET`), so the table alone gives nothing away, and a
 * tampered value fails to open instead of opening to something else.
 */
export function sealAtRest(secret: string, purpose: string, plain: string): string {
  const iv = pooledRandomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(secret, purpose), iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

export function openAtRest(secret: string, purpose: string, sealed: string): string {
  if (!sealed.startsWith(SEALED_PREFIX)) throw new Error(`not a sealed ${purpose}`);
  const bytes = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(secret, purpose), bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
