import { hash, verify } from '@node-rs/argon2';
import { ApiError } from '../common/api-error';

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/** argon2id with the library's defaults (19 MiB, 2 passes: OWASP's minimum), the salt and parameters in the hash. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** A hash of nothing anyone knows: checked against when there is no account, so a miss costs what a hit costs. */
const DECOY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$+mqf4Kkth40TRvP581V9+g$3q85O+cgdNetKr8swZNhXHOThYIdcpDuKARIzkVPpT0';

/** Whether the password matches; with no hash (no account, or none set) it still takes one verification's time. */
export async function passwordMatches(passwordHash: string | null, password: string): Promise<boolean> {
  try {
    const matches = await verify(passwordHash ?? DECOY_HASH, password);
    return passwordHash !== null && matches;
  } catch {
    return false;
  }
}

/** Length is the rule (NIST SP 800-63B): no composition rules, no upper bound a passphrase would meet. */
export function assertPasswordAcceptable(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw new ApiError('weak_password', `a password needs ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
  }
}
