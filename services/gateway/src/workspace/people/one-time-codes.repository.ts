import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7 } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { returningRows } from '../database/returning-rows';
import { hashSecretToken, newSecretToken, newTypedCode, normalizeTypedCode } from './secret-token';

export type OneTimeCodePurpose = 'password_reset' | 'sign_in';

/**
 * Codes an admin command prints (`user_one_time_code`): a password-reset code a person types, or a
 * sign-in link (`/auth/link/<syl_...>`). Each is used once and expires; only its hash is kept.
 */
@Injectable()
export class OneTimeCodesRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async issue(options: { readonly userId: string; readonly purpose: OneTimeCodePurpose; readonly ttlMs: number }): Promise<{ readonly code: string; readonly expiresAt: Date }> {
    const code = options.purpose === 'sign_in' ? newSecretToken('syl_') : newTypedCode();
    const expiresAt = new Date(Date.now() + options.ttlMs);
    await this.dataSource.query('insert into user_one_time_code (id, user_id, purpose, code_hash, expires_at) values ($1, $2, $3, $4, $5)', [
      uuidv7(),
      options.userId,
      options.purpose,
      hashSecretToken(this.canonical(options.purpose, code)),
      expiresAt,
    ]);
    return { code, expiresAt };
  }

  /** The user the code was issued to, once: it is spent by this call. Undefined when unknown, used or expired. */
  async consume(options: { readonly purpose: OneTimeCodePurpose; readonly code: string; readonly userId?: string }): Promise<string | undefined> {
    const rows = await returningRows<{ user_id: string }>(
      this.dataSource,
      `update user_one_time_code set used_at = now()
        where code_hash = $1 and purpose = $2 and used_at is null and expires_at > now() and ($3::text is null or user_id = $3)
        returning user_id`,
      [hashSecretToken(this.canonical(options.purpose, options.code)), options.purpose, options.userId ?? null],
    );
    return rows[0]?.user_id;
  }

  private canonical(purpose: OneTimeCodePurpose, code: string): string {
    return purpose === 'password_reset' ? normalizeTypedCode(code) : code;
  }
}
