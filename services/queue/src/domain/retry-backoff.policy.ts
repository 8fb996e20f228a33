/** How long automatic retries wait: exponential per retry in the chain, jittered, capped. */
export interface RetryBackoffSettings {
  readonly baseMs: number;
  readonly maxMs: number;
}

export interface RetryBackoffInput {
  /** Retries already made in this chain of tasks (0 for the first failure). */
  readonly priorRetries: number;
  /** The provider's retry-after, when the failure carried one. */
  readonly providerRetryAfterMs: number | null;
  readonly now: Date;
  /** A number in [0, 1): `Math.random` in production, fixed in tests. */
  readonly random: () => number;
}

/** The most doublings that can matter: 2^30 times any base is past every sane cap. */
const MAXIMUM_EXPONENT = 30;

/**
 * Pure: when the retry may run. The delay doubles with each retry of the chain (`base * 2^n`), is
 * capped at `maxMs`, and gets equal jitter (half fixed, half random) so the retries of many tasks
 * failed by one provider outage do not all come back in the same instant. A provider's retry-after
 * is a floor, also capped: a provider asking for an hour does not park a task for an hour.
 */
export function retryDelayMs(settings: RetryBackoffSettings, input: Omit<RetryBackoffInput, 'now'>): number {
  const exponent = Math.min(Math.max(0, input.priorRetries), MAXIMUM_EXPONENT);
  const exponential = Math.min(settings.maxMs, settings.baseMs * 2 ** exponent);
  const jittered = exponential / 2 + (input.random() * exponential) / 2;
  const floor = Math.min(settings.maxMs, input.providerRetryAfterMs ?? 0);
  return Math.round(Math.max(jittered, floor));
}

export function retryAtOf(settings: RetryBackoffSettings, input: RetryBackoffInput): string {
  return new Date(input.now.getTime() + retryDelayMs(settings, input)).toISOString();
}

const RETRY_AFTER_TOKEN = /\[retry_after_ms=(\d{1,12})\]/;

/** The provider's retry-after the daemon put in the failure message (`[retry_after_ms=<n>]`), or null. */
export function providerRetryAfterMsOf(message: string): number | null {
  const match = RETRY_AFTER_TOKEN.exec(message);
  return match ? Number.parseInt(match[1] ?? '', 10) : null;
}
