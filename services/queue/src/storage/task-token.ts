import { createHash, createHmac } from 'node:crypto';
import type { AlongsideStatement } from '@switchyard/event-store';

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

/** The tokens of a claim's attempts, a statement sent with the claim's events (see `AlongsideStatement`). */
export function taskTokensStatement(options: {
  readonly tokens: ReadonlyArray<{ readonly taskId: string; readonly attempt: number; readonly token: string }>;
  readonly issuedAt: Date;
  readonly ttlMs: number;
}): AlongsideStatement {
  return (first) => ({
    sql: `insert into task_token (task_id, attempt, token_hash, issued_at, expires_at)
     select task_id, attempt, token_hash, $${first + 3}::timestamptz, $${first + 4}::timestamptz from unnest($${first}::text[], $${first + 1}::int[], $${first + 2}::text[]) as token(task_id, attempt, token_hash)
     on conflict (task_id, attempt) do nothing`,
    parameters: [
      options.tokens.map((token) => token.taskId),
      options.tokens.map((token) => token.attempt),
      options.tokens.map((token) => hashTaskToken(token.token)),
      options.issuedAt.toISOString(),
      new Date(options.issuedAt.getTime() + options.ttlMs).toISOString(),
    ],
  });
}

/** Tasks that ended take their tokens with them. */
export function revokeTaskTokensStatement(taskIds: readonly string[]): AlongsideStatement {
  return (first) => ({ sql: `update task_token set revoked_at = now() where task_id = any($${first}::text[]) and revoked_at is null`, parameters: [[...taskIds]] });
}
