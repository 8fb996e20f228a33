import type { LatencySummary } from './statistics';

/** measure, latency, throughput, vs baseline. */
export type TableRow = readonly [string, string, string, string];

const COLUMN_WIDTHS = [44, 40, 40, 30] as const;
const HEADER: TableRow = ['measure', 'latency', 'throughput', 'vs baseline'];

export const format = (value: number, digits = 2): string => value.toFixed(digits);

export function latencyCell(summary: LatencySummary): string {
  return `p50 ${format(summary.p50)} ms, p99 ${format(summary.p99)} ms`;
}

/** `x3.4 <what>`, e.g. `x3.4 p50 of bare spawn`: how many times the baseline's figure this one is. */
export function ratioCell(value: number, baseline: number, what: string): string {
  return `x${format(value / baseline, 1)} ${what}`;
}

export function mebibytes(kibibytes: number): string {
  return `${format(kibibytes / 1024, 1)} MiB`;
}

/** The table as printed: one padded line per row, the header first; a cell wider than its column pushes the next. */
export function renderTable(rows: readonly TableRow[]): string {
  return [HEADER, ...rows].map((row) => row.map((cell, index) => cell.padEnd(COLUMN_WIDTHS[index]!)).join(' ').trimEnd()).join('\n');
}
