/** Summary of one series of latency samples, in milliseconds. */
export interface LatencySummary {
  readonly count: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

/** Nearest-rank percentile over sorted samples. */
export function percentile(sortedSamples: readonly number[], fraction: number): number {
  if (sortedSamples.length === 0) throw new RangeError('no samples');
  const rank = Math.min(sortedSamples.length - 1, Math.max(0, Math.ceil(fraction * sortedSamples.length) - 1));
  return sortedSamples[rank]!;
}

export function summarizeLatencies(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((left, right) => left - right);
  return {
    count: sorted.length,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1]!,
  };
}

/** Milliseconds since `start` (a `process.hrtime.bigint()` reading). */
export function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Wall-clock milliseconds with sub-millisecond resolution (`performance.timeOrigin + now()`): the
 * clock the fake agent stamps its lines and its start with, comparable across processes of one machine.
 */
export function wallClockMs(): number {
  return performance.timeOrigin + performance.now();
}

/** Mean and peak of a series of readings (memory samples, for instance). */
export interface SampleSummary {
  readonly count: number;
  readonly mean: number;
  readonly peak: number;
}

export function summarizeSamples(samples: readonly number[]): SampleSummary {
  if (samples.length === 0) throw new RangeError('no samples');
  return { count: samples.length, mean: samples.reduce((total, sample) => total + sample, 0) / samples.length, peak: Math.max(...samples) };
}
