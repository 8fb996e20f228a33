import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SWITCHYARD_METRICS, createServiceMetrics, type MetricDefinition } from '@switchyard/telemetry';
import { workspaceRoot } from './workspace-lint';

// deploy/grafana/switchyard-dashboard.json against the code: every series its queries select is one
// a Switchyard process registers (the catalog's, or the default process metrics), every Switchyard
// metric has a panel, and the panels take their Prometheus from the `datasource` variable.

interface Target {
  readonly refId: string;
  readonly expr: string;
  readonly datasource?: { readonly type: string; readonly uid: string };
}

interface Panel {
  readonly id: number;
  readonly type: string;
  readonly title: string;
  readonly datasource?: { readonly type: string; readonly uid: string };
  readonly gridPos: { readonly h: number; readonly w: number; readonly x: number; readonly y: number };
  readonly targets?: readonly Target[];
}

interface Dashboard {
  readonly uid: string;
  readonly schemaVersion: number;
  readonly panels: readonly Panel[];
  readonly templating: { readonly list: ReadonlyArray<{ readonly name: string; readonly type: string; readonly query?: string }> };
}

const dashboard = JSON.parse(readFileSync(path.join(workspaceRoot, 'deploy/grafana/switchyard-dashboard.json'), 'utf8')) as Dashboard;
const queryPanels = dashboard.panels.filter((panel) => panel.type !== 'row');
const expressions = queryPanels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));

/** PromQL words that look like series names but are not. */
const PROMQL_KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'inf', 'nan']);
const HISTOGRAM_SERIES = /^(.+)_(bucket|sum|count)$/;

/** The series names an expression selects: identifiers that are not calls, keywords or label names. */
function metricNamesIn(expression: string): string[] {
  const stripped = withoutLabels(expression);
  const names: string[] = [];
  for (const match of stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const after = stripped.slice((match.index ?? 0) + match[0].length).trimStart();
    if (after.startsWith('(') || PROMQL_KEYWORDS.has(match[0].toLowerCase())) continue;
    names.push(match[0]);
  }
  return names;
}

/** The series `rate`, `irate` and `increase` are applied to: counters only make sense there. */
function ratedNamesIn(expression: string): string[] {
  return [...withoutLabels(expression).matchAll(/\b(?:rate|irate|increase)\(\s*([a-zA-Z_:][a-zA-Z0-9_:]*)/g)].map((match) => match[1]!);
}

/** Strings, label matchers, ranges, and the label lists of by/without/on/ignoring/group_*. */
function withoutLabels(expression: string): string {
  return expression
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
}

/** What the code registers, name → Prometheus type: every catalog metric beside the default process metrics. */
async function registeredMetrics(): Promise<Map<string, string>> {
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const metrics = await createServiceMetrics({ service: 'dashboard-check', logger: quiet });
  for (const definition of Object.values(SWITCHYARD_METRICS) as MetricDefinition[]) {
    if (definition.kind === 'gauge') metrics.gaugeAtScrape(definition, () => []);
    else metrics.histogram(definition);
  }
  const { body } = await metrics.exposition();
  return new Map([...body.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => [match[1]!, match[2]!]));
}

/** The type of a series name as registered: a histogram's `_bucket`, `_sum` and `_count` are counters. */
function seriesType(registered: ReadonlyMap<string, string>, name: string): string | undefined {
  const histogram = HISTOGRAM_SERIES.exec(name);
  if (histogram && registered.get(histogram[1]!) === 'histogram') return 'counter';
  const type = registered.get(name);
  // A histogram's own name selects no series.
  return type === 'histogram' ? undefined : type;
}

describe('the Grafana dashboard', () => {
  let registered: Map<string, string>;

  beforeAll(async () => {
    registered = await registeredMetrics();
  });

  it('reads the series names of PromQL expressions', () => {
    expect(metricNamesIn('histogram_quantile(0.99, sum by (le) (rate(switchyard_claim_latency_seconds_bucket{service="queue"}[$__rate_interval])))')).toEqual([
      'switchyard_claim_latency_seconds_bucket',
    ]);
    expect(metricNamesIn('sum without (instance) (a_total) / on (service) group_left (state) b{state="busy"} > bool 0')).toEqual(['a_total', 'b']);
    expect(ratedNamesIn('sum(rate(process_cpu_seconds_total{service="gateway"}[5m])) + increase(x_count[1h])')).toEqual(['process_cpu_seconds_total', 'x_count']);
  });

  it('is a dashboard of schema 39 whose every panel and query use the `datasource` Prometheus variable', () => {
    expect(dashboard.schemaVersion).toBe(39);
    expect(dashboard.uid).toBe('switchyard-overview');
    expect(dashboard.templating.list).toContainEqual(expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' }));
    const sources = queryPanels.flatMap((panel) => [panel.datasource, ...(panel.targets ?? []).map((target) => target.datasource)]);
    expect(sources.filter((source) => source?.type !== 'prometheus' || source.uid !== '${datasource}')).toEqual([]);
    expect(queryPanels.filter((panel) => (panel.targets ?? []).length === 0).map((panel) => panel.title)).toEqual([]);
  });

  it('queries only series the code registers, and rates only counters', () => {
    const names = [...new Set(expressions.flatMap(metricNamesIn))];
    expect(names.length).toBeGreaterThan(5);
    expect(names.filter((name) => seriesType(registered, name) === undefined)).toEqual([]);
    const rated = [...new Set(expressions.flatMap(ratedNamesIn))];
    expect(rated.filter((name) => seriesType(registered, name) !== 'counter')).toEqual([]);
  });

  it('has a panel for every Switchyard metric, and for the processes’ CPU and memory', () => {
    const selected = new Set(expressions.flatMap(metricNamesIn).map((name) => (seriesType(registered, name) === 'counter' ? (HISTOGRAM_SERIES.exec(name)?.[1] ?? name) : name)));
    const wanted = [...Object.values(SWITCHYARD_METRICS).map((definition) => definition.name), 'process_cpu_seconds_total', 'process_resident_memory_bytes'];
    expect(wanted.filter((name) => !selected.has(name))).toEqual([]);
  });

  it('shows the claim latency at p50 and p99 from its buckets, and the daemon slots busy and total', () => {
    const bucket = `${SWITCHYARD_METRICS.claimLatency.name}_bucket`;
    for (const quantile of ['0.5', '0.99']) {
      expect(expressions.some((expression) => expression.startsWith(`histogram_quantile(${quantile},`) && expression.includes(bucket))).toBe(true);
    }
    for (const state of ['busy', 'total']) {
      expect(expressions.some((expression) => expression.includes(`${SWITCHYARD_METRICS.daemonSlots.name}{state="${state}"}`))).toBe(true);
    }
  });

  it('lays its panels out on the 24-column grid with ids of their own', () => {
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(dashboard.panels.filter((panel) => panel.gridPos.x + panel.gridPos.w > 24 || panel.gridPos.w < 1 || panel.gridPos.h < 1)).toEqual([]);
    for (const panel of queryPanels) expect(new Set((panel.targets ?? []).map((target) => target.refId)).size).toBe(panel.targets?.length);
  });
});
