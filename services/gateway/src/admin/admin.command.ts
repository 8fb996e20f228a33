import { parseArgs } from 'node:util';
import type { DataSource } from 'typeorm';
import { OneTimeCodesRepository } from '../workspace/people/one-time-codes.repository';
import { UsersRepository } from '../workspace/people/users.repository';

export const ADMIN_USAGE = `npm run admin -- <command> --email <email>   (environment: DATABASE_URL, GATEWAY_PUBLIC_URL)

  sign-in-link     prints a one-time link that signs the account in (an account without a password, e.g. the first owner)
  reset-password   prints a one-time code with which the person sets a new password (POST /api/auth/password-reset, or the web app)

Each is good once, for GATEWAY_ONE_TIME_CODE_TTL_MS (30 min). Exit code 0 done, 1 no such account, 2 usage error.`;

export interface AdminSettings {
  readonly publicUrl: string;
  readonly ttlMs: number;
}

/** What the command printed and how it ended. */
export interface AdminOutcome {
  readonly exitCode: 0 | 1 | 2;
  readonly lines: readonly string[];
}

/**
 * The operator's way to let a person in without a password or with a forgotten one: run where the
 * database is reachable (on the gateway's machine, in its pod), never over the API.
 */
export async function runAdminCommand(options: { readonly argv: readonly string[]; readonly dataSource: DataSource; readonly settings: AdminSettings }): Promise<AdminOutcome> {
  let parsed: ReturnType<typeof parseArgs<{ options: { email: { type: 'string' } }; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: [...options.argv], options: { email: { type: 'string' } }, allowPositionals: true });
  } catch (error) {
    return { exitCode: 2, lines: [`admin: ${(error as Error).message}`, ADMIN_USAGE] };
  }
  const [command] = parsed.positionals;
  const email = parsed.values.email;
  if ((command !== 'sign-in-link' && command !== 'reset-password') || email === undefined) return { exitCode: 2, lines: [ADMIN_USAGE] };
  const user = await new UsersRepository(options.dataSource).findByEmail(email);
  if (!user) return { exitCode: 1, lines: [`admin: no active account with the email ${email}`] };
  const codes = new OneTimeCodesRepository(options.dataSource);
  const purpose = command === 'sign-in-link' ? 'sign_in' : 'password_reset';
  const { code, expiresAt } = await codes.issue({ userId: user.id, purpose, ttlMs: options.settings.ttlMs });
  const until = `good once, until ${expiresAt.toISOString()}`;
  return command === 'sign-in-link'
    ? { exitCode: 0, lines: [`Sign-in link for ${user.email} (${until}):`, `${options.settings.publicUrl}/auth/link/${code}`] }
    : { exitCode: 0, lines: [`Password-reset code for ${user.email} (${until}):`, code, `Use it at ${options.settings.publicUrl} (or POST /api/auth/password-reset {email, code, newPassword}).`] };
}
