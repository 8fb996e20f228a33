import { queuedExpiresAtOf } from '@switchyard/contracts';

export interface QueuedTaskExpiry {
  readonly expiresAt: string | null;
  /** Sent with `expiresAt` so the queue can give an automatic retry the same TTL from its own enqueue. */
  readonly queuedTtlMs: number | null;
}

/**
 * The expiry a task is enqueued with: the TTL the request names (null: none), else the
 * workspace's default, counted from `fireAt` for a deferred task and from `now` otherwise.
 */
export function queuedTaskExpiryOf(options: {
  /** Undefined: the request named none, the workspace default applies. */
  readonly expiresInSeconds: number | null | undefined;
  readonly workspaceDefaultSeconds: number | null;
  readonly now: Date;
  readonly fireAt: string | null;
}): QueuedTaskExpiry {
  const ttlSeconds = options.expiresInSeconds === undefined ? options.workspaceDefaultSeconds : options.expiresInSeconds;
  const queuedTtlMs = ttlSeconds === null ? null : ttlSeconds * 1000;
  return { expiresAt: queuedExpiresAtOf({ now: options.now, fireAt: options.fireAt, queuedTtlMs }), queuedTtlMs };
}
