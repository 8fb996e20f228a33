/** What the limiter says to one authentication attempt. */
export type AuthAttempt =
  | {
      readonly admitted: true;
      /** The attempt was no failure (it succeeded, or could not be checked): it no longer counts. Not calling it counts it as one. */
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
 * per window. An attempt counts as a failure from the moment it is admitted, so a burst of
 * concurrent guesses is held to the limit too. Memory stays bounded: at most `maxFailures` times
 * per client, `maxClients` clients, expired ones dropped as new failures arrive.
 */
export class FailedAuthLimiter {
  /** Failure times per client, oldest first; the map in least-recently-failed order. */
  private readonly failures = new Map<string, number[]>();
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
    if (recent.length >= this.options.maxFailures) {
      return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((recent[0]! + this.options.windowMs - now) / 1_000)) };
    }
    recent.push(now);
    this.remember(client, recent);
    return { admitted: true, forgive: () => this.forget(client, now) };
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

  private forget(client: string, time: number): void {
    const times = this.failures.get(client);
    const index = times?.indexOf(time) ?? -1;
    if (!times || index === -1) return;
    times.splice(index, 1);
    if (times.length === 0) this.failures.delete(client);
  }
}
