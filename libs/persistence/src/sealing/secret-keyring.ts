import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const SEALED_PREFIX = 'sealed:v2:';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The keys a service seals secrets at rest with (AES-256-GCM). The first key seals; every key
 * opens, so a key can be rotated without a flag day: put the new key first, let the old values be
 * sealed again (`needsResealing`), then drop the old key.
 */
export interface SecretKeyring {
  /** Which key seals: the first 8 hex digits of its SHA-256, never the key. */
  readonly primaryKeyId: string;
  readonly keyIds: readonly string[];
  seal(purpose: string, plain: string): string;
  /** Throws `SecretUnreadableError` when no key of the ring sealed it, or the value was altered. */
  open(purpose: string, sealed: string): string;
  /** True for a value in clear or sealed under a key other than the first. */
  needsResealing(value: string): boolean;
}

export class SecretUnreadableError extends Error {
  readonly code = 'secret_unreadable';
}

export function isSealedSecret(value: string): boolean {
  return value.startsWith(SEALED_PREFIX);
}

/** A new key in the form `SECRET_KEYS` settings take: 32 random bytes, base64url. */
export function generateSecretKey(): string {
  return randomBytes(KEY_BYTES).toString('base64url');
}

const keyIdOf = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

/** Parses a comma-separated list of base64url 32-byte keys (the first seals); throws on a malformed one. */
export function parseSecretKeys(text: string): Buffer[] {
  const keys = text.split(',').map((entry) => entry.trim()).filter((entry) => entry.length > 0);
  if (keys.length === 0) throw new Error('no key given');
  return keys.map((entry, index) => {
    const key = Buffer.from(entry, 'base64url');
    if (key.length !== KEY_BYTES || key.toString('base64url') !== entry) throw new Error(`key ${index + 1} is not ${KEY_BYTES} bytes in base64url`);
    return key;
  });
}

export function secretKeyring(keys: readonly Buffer[]): SecretKeyring {
  if (keys.length === 0) throw new Error('a keyring needs at least one key');
  const byId = new Map(keys.map((key) => [keyIdOf(key), key]));
  const primaryKeyId = keyIdOf(keys[0] as Buffer);
  return {
    primaryKeyId,
    keyIds: [...byId.keys()],
    seal(purpose, plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', byId.get(primaryKeyId) as Buffer, iv);
      // The purpose is authenticated: a value sealed for one use does not open for another.
      cipher.setAAD(Buffer.from(purpose, 'utf8'));
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${SEALED_PREFIX}${primaryKeyId}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
    },
    open(purpose, sealed) {
      if (!isSealedSecret(sealed)) throw new SecretUnreadableError(`not a sealed ${purpose}`);
      const [keyId, body] = sealed.slice(SEALED_PREFIX.length).split(':');
      const key = keyId === undefined ? undefined : byId.get(keyId);
      if (key === undefined || body === undefined) throw new SecretUnreadableError(`the ${purpose} is sealed under key ${keyId ?? '?'}, which is not configured`);
      const bytes = Buffer.from(body, 'base64url');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(purpose, 'utf8'));
        decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretUnreadableError(`the ${purpose} does not open: altered, or sealed for another purpose`);
      }
    },
    needsResealing: (value) => !value.startsWith(`${SEALED_PREFIX}${primaryKeyId}:`),
  };
}
