export interface ExponentialBackoffOptions {
  /** Delay before the first retry. */
  readonly initialDelayMs: number;
  readonly maximumDelayMs: number;
  /** Growth per attempt; 2 doubles the delay. */
  readonly multiplier?: number;
  /** Fraction of the delay replaced by randomness (0 = none, 1 = "full jitter"). */
  readonly jitter?: number;
  /** Source of randomness in [0, 1); injectable so tests are deterministic. */
  readonly random?: () => number;
}

/** Delay before retry number `attempt` (1-based): initial * multiplier^(attempt-1), capped, jittered. */
export function exponentialBackoffDelay(attempt: number, options: ExponentialBackoffOptions): number {
  const random = options.random ?? Math.random;
  const multiplier = options.multiplier ?? 2;
  const jitter = Math.min(Math.max(options.jitter ?? 0.2, 0), 1);
  const exponent = Math.max(attempt - 1, 0);
  const base = Math.min(options.initialDelayMs * multiplier ** exponent, options.maximumDelayMs);
  const fixedPart = base * (1 - jitter);
  return Math.round(fixedPart + base * jitter * random());
}

/**
 * Redelivery delay after delivery number `deliveryCount` (1-based) failed: the matching entry of
 * the consumer's backoff list, the last entry repeating (JetStream's own rule for `backoff`).
 */
export function redeliveryDelay(options: {
  readonly deliveryCount: number;
  readonly backoffMs: readonly number[];
  readonly fallbackMs: number;
}): number {
  const { deliveryCount, backoffMs, fallbackMs } = options;
  if (backoffMs.length === 0) return fallbackMs;
  const index = Math.min(Math.max(deliveryCount - 1, 0), backoffMs.length - 1);
  return backoffMs[index] ?? fallbackMs;
}

/** Resolves after `milliseconds`, or early (without error) when `signal` aborts. */
export function sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
