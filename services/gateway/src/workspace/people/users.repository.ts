import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7 } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { ApiError } from '../common/api-error';
import { isoOf } from '../common/api-schemas';
import type { RawQueryRunner } from '../database/returning-rows';
import { assertPasswordAcceptable, hashPassword, passwordMatches } from './password.hasher';
import type { UserView } from './people.schemas';

interface UserRow {
  id: string;
  email: string;
  display_name: string;
  password_hash: string | null;
  created_at: Date;
  disabled_at: Date | null;
}

const COLUMNS = 'id, email, display_name, password_hash, created_at, disabled_at';

export const viewOfUser = (row: Pick<UserRow, 'id' | 'email' | 'display_name' | 'password_hash' | 'created_at'>): UserView => ({
  id: row.id,
  email: row.email,
  displayName: row.display_name,
  hasPassword: row.password_hash !== null,
  createdAt: isoOf(row.created_at),
});

/** Emails compare without case or surrounding blanks. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** People with an account (`app_user`): created, found, their password set and checked. Never a hash leaves. */
@Injectable()
export class UsersRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async find(userId: string): Promise<UserView | undefined> {
    const [row] = await this.dataSource.query<UserRow[]>(`select ${COLUMNS} from app_user where id = $1 and disabled_at is null`, [userId]);
    return row ? viewOfUser(row) : undefined;
  }

  async findByEmail(email: string, runner: RawQueryRunner = this.dataSource): Promise<UserView | undefined> {
    const [row] = await runner.query<UserRow[]>(`select ${COLUMNS} from app_user where email = $1 and disabled_at is null`, [normalizeEmail(email)]);
    return row ? viewOfUser(row) : undefined;
  }

  /** A new account; `email_taken` when the email has one. The password, if given, is checked and hashed. */
  async create(options: { readonly email: string; readonly displayName: string; readonly password?: string; readonly id?: string }, runner: RawQueryRunner = this.dataSource): Promise<UserView> {
    if (options.password !== undefined) assertPasswordAcceptable(options.password);
    const passwordHash = options.password === undefined ? null : await hashPassword(options.password);
    const [row] = await runner.query<UserRow[]>(
      `insert into app_user (id, email, display_name, password_hash, password_set_at) values ($1, $2, $3, $4, case when $4::text is null then null else now() end)
       on conflict (email) do nothing returning ${COLUMNS}`,
      [options.id ?? `user-${uuidv7()}`, normalizeEmail(options.email), options.displayName, passwordHash],
    );
    if (!row) throw new ApiError('email_taken', `an account with the email ${normalizeEmail(options.email)} exists`);
    return viewOfUser(row);
  }

  async setPassword(userId: string, password: string, runner: RawQueryRunner = this.dataSource): Promise<void> {
    assertPasswordAcceptable(password);
    const passwordHash = await hashPassword(password);
    await runner.query('update app_user set password_hash = $2, password_set_at = now() where id = $1', [userId, passwordHash]);
  }

  /** The account these credentials sign in, or undefined; a miss takes as long as a hit. */
  async verifySignIn(email: string, password: string): Promise<UserView | undefined> {
    const [row] = await this.dataSource.query<UserRow[]>(`select ${COLUMNS} from app_user where email = $1 and disabled_at is null`, [normalizeEmail(email)]);
    const matches = await passwordMatches(row?.password_hash ?? null, password);
    return row && matches ? viewOfUser(row) : undefined;
  }

  /** Whether the user's current password is this one (before a change). */
  async passwordIs(userId: string, password: string): Promise<boolean> {
    const [row] = await this.dataSource.query<Array<Pick<UserRow, 'password_hash'>>>('select password_hash from app_user where id = $1', [userId]);
    return passwordMatches(row?.password_hash ?? null, password);
  }
}
