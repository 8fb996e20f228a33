import { createHash, randomBytes } from 'node:crypto';

/** API tokens are `sy_` plus 32 random bytes (base64url); only their SHA-256 is stored. */
export const API_TOKEN_PREFIX = 'sy_';

export function generateApiToken(): string {
  return `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** A fast hash suffices: the token is 256 random bits, so there is nothing to brute-force. */
export function hashApiToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerTokenOf(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
