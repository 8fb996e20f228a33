import { createHash, createHmac } from 'node:crypto';
import type { EntityManager } from 'typeorm';

const TOKEN_PREFIX = 'syt_';

/**
 * The attempt's token, derived (HMAC-SHA256 of task and attempt under the queue's secret) rather
 * than stored: a claim reply replayed for a retried request id can be rebuilt without keeping the
 * token anywhere, and every replica derives the same one.
 */
export function deriveTaskToken(secret: string, taskId: string, attempt: number): string {
  return TOKEN_PREFIX + createHmac('sha256', secret).update(`${taskId}:${attempt}`).digest('base64url');
}

/** What is kept at rest and compared on use. */
export function hashTaskToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function recordTaskToken(
  manager: EntityManager,
  options: { readonly taskId: string; readonly attempt: number; readonly token: string; readonly issuedAt: Date; readonly ttlMs: number },
): Promise<void> {
  await manager.query(
    `insert into task_token (task_id, attempt, token_hash, issued_at, expires_at) values ($1, $2, $3, $4, $5)
     on conflict (task_id, attempt) do nothing`,
    [options.taskId, options.attempt, hashTaskToken(options.token), options.issuedAt.toISOString(), new Date(options.issuedAt.getTime() + options.ttlMs).toISOString()],
  );
}

/** `recordTaskToken` for a claim's batch, one statement. */
export async function recordTaskTokens(
  manager: EntityManager,
  options: { readonly tokens: ReadonlyArray<{ readonly taskId: string; readonly attempt: number; readonly token: string }>; readonly issuedAt: Date; readonly ttlMs: number },
): Promise<void> {
  if (options.tokens.length === 0) return;
  await manager.query(
    `insert into task_token (task_id, attempt, token_hash, issued_at, expires_at)
     select task_id, attempt, token_hash, $4::timestamptz, $5::timestamptz from unnest($1::text[], $2::int[], $3::text[]) as token(task_id, attempt, token_hash)
     on conflict (task_id, attempt) do nothing`,
    [
      options.tokens.map((token) => token.taskId),
      options.tokens.map((token) => token.attempt),
      options.tokens.map((token) => hashTaskToken(token.token)),
      options.issuedAt.toISOString(),
      new Date(options.issuedAt.getTime() + options.ttlMs).toISOString(),
    ],
  );
}

/** A task that ended takes its tokens with it. */
export async function revokeTaskTokens(manager: EntityManager, taskId: string): Promise<void> {
  await manager.query('update task_token set revoked_at = now() where task_id = $1 and revoked_at is null', [taskId]);
}
