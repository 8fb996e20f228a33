import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { parseSecretKeys, secretKeyring, type SecretKeyring } from './secret-keyring';

/** A `*_SECRET_KEYS` setting: comma-separated base64url 32-byte keys, the first sealing; checked at boot. */
export const secretKeysSettingSchema = z
  .string()
  .optional()
  .superRefine((value, context) => {
    if (value === undefined) return;
    try {
      parseSecretKeys(value);
    } catch (error) {
      context.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
    }
  });

/**
 * The keyring of a setting. Unset, a random key for this process only, and `warn` says so: what it
 * seals does not open after a restart or on another replica (`npm start` and the deploy files set it).
 */
export function keyringOfSetting(value: string | undefined, warn: (message: string) => void): SecretKeyring {
  if (value !== undefined) return secretKeyring(parseSecretKeys(value));
  warn('no secret keys configured: secrets are sealed with a random key that dies with this process and differs between replicas');
  return secretKeyring([randomBytes(32)]);
}
