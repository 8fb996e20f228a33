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
