import { EMPTY_TOTALS, TOKEN_FIELDS, type AgentUsage, type TokenField, type TokenTotals } from '../api/usage.api';

// Tokens over time from an API that only totals "since a time": the usage of the tasks enqueued in
// [start_i, start_i+1) is the total since start_i less the total since start_i+1.

export type UsageRangeName = 'day' | 'week' | 'month' | 'quarter';

interface UsageRange {
  readonly label: string;
  readonly buckets: number;
  /** Buckets of whole hours (aligned on the hour) or whole days (aligned on local midnight). */
  readonly unit: 'hour' | 'day';
  readonly size: number;
}

export const USAGE_RANGES: Readonly<Record<UsageRangeName, UsageRange>> = {
  day: { label: 'Last 24 hours, per 3 hours', buckets: 8, unit: 'hour', size: 3 },
  week: { label: 'Last 7 days, per day', buckets: 7, unit: 'day', size: 1 },
  month: { label: 'Last 4 weeks, per week', buckets: 4, unit: 'day', size: 7 },
  quarter: { label: 'Last 12 weeks, per week', buckets: 12, unit: 'day', size: 7 },
};

export type UsageMetric = 'total' | TokenField;

export const USAGE_METRICS: Readonly<Record<UsageMetric, string>> = {
  total: 'Input + output tokens',
  inputTokens: 'Input tokens',
  outputTokens: 'Output tokens',
  cacheReadTokens: 'Cache read tokens',
  cacheWriteTokens: 'Cache write tokens',
};

/** One line of the chart and one row of the table: an agent's tokens with one provider and model. */
export interface UsageSeries {
  readonly key: string;
  readonly agentId: string;
  readonly provider: string;
  readonly model: string;
  /** Per bucket, oldest first. */
  readonly buckets: readonly TokenTotals[];
  /** Over the whole range. */
  readonly totals: TokenTotals;
}

/**
 * The starts of the range's buckets, oldest first; the last bucket runs to now. Calendar steps
 * (not fixed milliseconds) keep days on local midnight across daylight-saving changes; the same
 * `now` within a bucket gives the same starts, so cached answers are reused.
 */
export function bucketStarts(rangeName: UsageRangeName, now: Date): Date[] {
  const range = USAGE_RANGES[rangeName];
  const end = new Date(now);
  if (range.unit === 'hour') {
    end.setMinutes(0, 0, 0);
    end.setHours(end.getHours() - (end.getHours() % range.size) + range.size);
  } else {
    end.setHours(0, 0, 0, 0);
    end.setDate(end.getDate() + 1);
  }
  const starts: Date[] = [];
  for (let index = range.buckets; index >= 1; index -= 1) {
    const start = new Date(end);
    if (range.unit === 'hour') start.setHours(start.getHours() - index * range.size);
    else start.setDate(start.getDate() - index * range.size);
    starts.push(start);
  }
  return starts;
}

/**
 * The series of one agent from its totals since each bucket start (same order as the starts).
 * A task enqueued between two requests can make a difference negative: it counts as nothing.
 */
export function seriesOfAgent(agentId: string, sinceEachStart: readonly AgentUsage[]): UsageSeries[] {
  const models = new Map<string, { provider: string; model: string }>();
  for (const usage of sinceEachStart) for (const row of usage.byModel) models.set(modelKey(row), { provider: row.provider, model: row.model });
  return [...models.entries()].map(([key, { provider, model }]) => {
    const cumulative = sinceEachStart.map((usage) => usage.byModel.find((row) => modelKey(row) === key) ?? EMPTY_TOTALS);
    const buckets = cumulative.map((since, index) => difference(since, cumulative[index + 1] ?? EMPTY_TOTALS));
    return { key: `${agentId}|${key}`, agentId, provider, model, buckets, totals: cumulative[0] ?? EMPTY_TOTALS };
  });
}

export function metricOf(totals: TokenTotals, metric: UsageMetric): number {
  return metric === 'total' ? totals.inputTokens + totals.outputTokens : totals[metric];
}

function modelKey(row: { readonly provider: string; readonly model: string }): string {
  return `${row.provider}|${row.model}`;
}

function difference(later: TokenTotals, earlier: TokenTotals): TokenTotals {
  const result: Record<TokenField, number> = { ...EMPTY_TOTALS };
  for (const field of TOKEN_FIELDS) result[field] = Math.max(0, later[field] - earlier[field]);
  return result;
}
