import { createHash, randomBytes } from 'node:crypto';

/**
 * A random secret with a prefix that says what it is (`sys_` session, `syc_` CSRF, `syi_`
 * invitation, `syl_` sign-in link); only its SHA-256 is stored. 256 random bits: a fast hash suffices.
 */
export function newSecretToken(prefix: 'sys_' | 'syc_' | 'syi_' | 'syl_'): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A code a person types from an admin's terminal: 12 characters of an unambiguous alphabet (60 bits), in groups of four. */
export function newTypedCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // 32 symbols: 5 bits each, no bias
  const bytes = randomBytes(12);
  const characters = [...bytes].map((byte) => alphabet[byte % alphabet.length]).join('');
  return `${characters.slice(0, 4)}-${characters.slice(4, 8)}-${characters.slice(8, 12)}`;
}

/** Typed codes compare without case or separators. */
export function normalizeTypedCode(code: string): string {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, '');
}
