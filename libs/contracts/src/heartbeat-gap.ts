/** A heartbeat later than its interval by more than this is a gap: daemons and the queue log it. */
export const HEARTBEAT_GAP_TOLERANCE_MS = 1_000;

/**
 * The gap between two heartbeats when it is late (longer than `intervalMs` plus the tolerance),
 * else undefined. The same rule on both ends of the bus: the daemon on sending, the queue on arrival.
 */
export function lateHeartbeatGapMs(options: { readonly previousAt: number; readonly at: number; readonly intervalMs: number }): number | undefined {
  const gapMs = options.at - options.previousAt;
  return gapMs > options.intervalMs + HEARTBEAT_GAP_TOLERANCE_MS ? gapMs : undefined;
}
