/** What the limiter says to one authentication attempt. */
export type AuthAttempt =
  | {
      readonly admitted: true;
      /** The secret was wrong: one failure of the client, from now. */
      failed(): void;
      /** The attempt was no failure (it succeeded, or could not be checked). */
      forgive(): void;
    }
  | { readonly admitted: false; readonly retryAfterSeconds: number };

export interface FailedAuthLimiterOptions {
  /** Failures one client may have within `windowMs`; the next attempt is refused. */
  readonly maxFailures: number;
  readonly windowMs: number;
  /** Clients remembered at most; the one that failed least recently is forgotten first. */
  readonly maxClients: number;
  readonly now?: () => number;
}

/**
 * A sliding-window count of failed authentications per client (an address): past `maxFailures`
 * within `windowMs`, attempts are refused until the oldest failure leaves the window, whatever
 * token they bring, so guessing costs time and the database sees at most `maxFailures` guesses
 * per window. A client with no recent failure is never held back, however many requests it has
 * in flight (a burst of valid requests is no attack); once it has failed, its attempts still in
 * flight count toward the limit too, so a burst of concurrent guesses after the first failures is
 * held to it. Memory stays bounded: at most `maxFailures` times per client, `maxClients` clients,
 * expired ones dropped as new failures arrive.
 */
export class FailedAuthLimiter {
  /** Failure times per client, oldest first; the map in least-recently-failed order. */
  private readonly failures = new Map<string, number[]>();
  /** Attempts admitted and not yet settled, per client (only clients with some in flight). */
  private readonly inFlight = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly options: FailedAuthLimiterOptions) {
    for (const [name, value] of Object.entries({ maxFailures: options.maxFailures, windowMs: options.windowMs, maxClients: options.maxClients })) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
    }
    this.now = options.now ?? Date.now;
  }

  admit(client: string): AuthAttempt {
    const now = this.now();
    const recent = this.recentFailures(client, now);
    const pending = this.inFlight.get(client) ?? 0;
    if (recent.length >= this.options.maxFailures || (recent.length > 0 && recent.length + pending >= this.options.maxFailures)) {
      return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((recent[0]! + this.options.windowMs - now) / 1_000)) };
    }
    this.inFlight.set(client, pending + 1);
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      const left = (this.inFlight.get(client) ?? 1) - 1;
      if (left > 0) this.inFlight.set(client, left);
      else this.inFlight.delete(client);
      return true;
    };
    return {
      admitted: true,
      failed: () => {
        if (!settle()) return;
        const times = this.recentFailures(client, this.now());
        times.push(this.now());
        this.remember(client, times);
      },
      forgive: () => void settle(),
    };
  }

  /** Clients with failures in memory, for tests and metrics. */
  get trackedClients(): number {
    return this.failures.size;
  }

  private recentFailures(client: string, now: number): number[] {
    const times = this.failures.get(client) ?? [];
    const firstRecent = times.findIndex((time) => time > now - this.options.windowMs);
    return firstRecent === -1 ? [] : times.slice(firstRecent);
  }

  private remember(client: string, times: number[]): void {
    this.failures.delete(client);
    this.failures.set(client, times);
    this.dropExpired();
    if (this.failures.size > this.options.maxClients) this.failures.delete(this.failures.keys().next().value!);
  }

  /** The least recently failed clients come first: drop them while their last failure is out of the window. */
  private dropExpired(): void {
    const cutoff = this.now() - this.options.windowMs;
    for (const [client, times] of this.failures) {
      if (times[times.length - 1]! > cutoff) return;
      this.failures.delete(client);
    }
  }

}
