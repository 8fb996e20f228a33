/**
 * How long a task may wait unclaimed (queued or deferred) before the queue's sweeper fails it
 * `expired`. The API takes seconds within these bounds: under a minute would expire work before a
 * daemon's poll could see it, over 30 days is "never" said less clearly than null.
 */
export const QUEUED_TASK_TTL_SECONDS = { min: 60, max: 30 * 24 * 60 * 60 } as const;

/**
 * When a task enqueued at `now` with `fireAt` expires: its TTL counts from when it may first be
 * claimed, so a deferred task (a scheduled run, a retry in backoff) gets the whole TTL after its
 * fire time rather than losing the deferral to it. Null TTL: it never expires.
 */
export function queuedExpiresAtOf(options: { readonly now: Date; readonly fireAt: string | null; readonly queuedTtlMs: number | null }): string | null {
  if (options.queuedTtlMs === null) return null;
  const claimableFrom = options.fireAt === null ? options.now.getTime() : Math.max(options.now.getTime(), Date.parse(options.fireAt));
  return new Date(claimableFrom + options.queuedTtlMs).toISOString();
}
