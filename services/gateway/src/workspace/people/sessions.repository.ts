import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7 } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { returningRows } from '../database/returning-rows';
import { hashSecretToken, newSecretToken } from './secret-token';

/** A session as it is handed out once: its cookie secret and its CSRF token (only their hashes are kept). */
export interface OpenedSession {
  readonly sessionId: string;
  readonly token: string;
  readonly csrfToken: string;
  readonly expiresAt: Date;
}

/** A live session found by its cookie: whose it is, and the hash its CSRF header must match. */
export interface LiveSession {
  readonly sessionId: string;
  readonly userId: string;
  readonly csrfHash: string;
}

/** Browser sessions (`user_session`): opened at sign-in, found by their cookie, revoked at sign-out. */
@Injectable()
export class SessionsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async open(userId: string, ttlMs: number): Promise<OpenedSession> {
    const token = newSecretToken('sys_');
    const csrfToken = newSecretToken('syc_');
    const sessionId = uuidv7();
    const expiresAt = new Date(Date.now() + ttlMs);
    await this.dataSource.query('insert into user_session (id, user_id, token_hash, csrf_hash, expires_at) values ($1, $2, $3, $4, $5)', [
      sessionId,
      userId,
      hashSecretToken(token),
      hashSecretToken(csrfToken),
      expiresAt,
    ]);
    return { sessionId, token, csrfToken, expiresAt };
  }

  /** The session of this cookie while it is neither revoked nor expired nor its account disabled; marks it seen (at most once a minute). */
  async find(token: string): Promise<LiveSession | undefined> {
    const rows = await returningRows<{ id: string; user_id: string; csrf_hash: string }>(
      this.dataSource,
      `update user_session s set last_seen_at = case when s.last_seen_at < now() - interval '1 minute' then now() else s.last_seen_at end
         from app_user u
        where s.token_hash = $1 and s.revoked_at is null and s.expires_at > now() and u.id = s.user_id and u.disabled_at is null
        returning s.id, s.user_id, s.csrf_hash`,
      [hashSecretToken(token)],
    );
    const row = rows[0];
    return row ? { sessionId: row.id, userId: row.user_id, csrfHash: row.csrf_hash } : undefined;
  }

  async revoke(sessionId: string): Promise<void> {
    await this.dataSource.query('update user_session set revoked_at = coalesce(revoked_at, now()) where id = $1', [sessionId]);
  }

  /** Every session of the user (after a password change or reset), but `keep`. */
  async revokeAllOf(userId: string, keep?: string): Promise<void> {
    await this.dataSource.query('update user_session set revoked_at = now() where user_id = $1 and revoked_at is null and ($2::text is null or id <> $2)', [userId, keep ?? null]);
  }

  /** Which of these sessions are still live (open WebSockets are rechecked with one query). */
  async liveSessionIds(sessionIds: readonly string[]): Promise<Set<string>> {
    if (sessionIds.length === 0) return new Set();
    const rows = await this.dataSource.query<Array<{ id: string }>>('select id from user_session where id = any($1::text[]) and revoked_at is null and expires_at > now()', [[...sessionIds]]);
    return new Set(rows.map((row) => row.id));
  }
}
