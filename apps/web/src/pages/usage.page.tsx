import { useCallback, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { describeError } from '../api/api-error';
import { agentKeys, listAgents } from '../api/agents.api';
import { usageKeys } from '../api/usage.api';
import { UsageChart } from '../components/usage-chart.view';
import { ALL_AGENTS, UsageControls, type UsageFilters } from '../components/usage-controls.view';
import { useUsageSeries } from '../components/usage-series.hook';
import { USAGE_METRICS, USAGE_RANGES, bucketStarts, metricOf } from '../components/usage-series.model';
import { UsageBucketTable, UsageTotalsTable } from '../components/usage-table.view';

/**
 * Tokens per agent and model over time, as a chart and the same numbers as tables. The API totals
 * an agent's tasks since a time, so each bucket is one request per agent: the page says how far it got.
 */
export function UsagePage() {
  const [filters, setFilters] = useState<UsageFilters>({ rangeName: 'week', metric: 'total', agentId: ALL_AGENTS, includeArchived: false });
  const [now, setNow] = useState(() => new Date());
  const queries = useQueryClient();
  // A new "now" moves the buckets only when a boundary passed: the totals are read again either way.
  const refresh = () => {
    setNow(new Date());
    void queries.invalidateQueries({ queryKey: usageKeys.all });
  };
  const agents = useQuery({ queryKey: agentKeys.list(filters.includeArchived), queryFn: () => listAgents({ includeArchived: filters.includeArchived }) });
  const starts = useMemo(() => bucketStarts(filters.rangeName, now), [filters.rangeName, now]);
  const shownAgents = useMemo(() => (agents.data ?? []).filter((agent) => filters.agentId === ALL_AGENTS || agent.id === filters.agentId), [agents.data, filters.agentId]);
  const usage = useUsageSeries(shownAgents, starts);
  const agentName = useCallback((agentId: string) => agents.data?.find((agent) => agent.id === agentId)?.name ?? agentId, [agents.data]);
  const { metric } = filters;
  const range = USAGE_RANGES[filters.rangeName];
  const bucketLabel = (start: Date) => (range.unit === 'hour' ? start.toLocaleString(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' }) : start.toLocaleDateString());
  const lines = useMemo(() => usage.series.map((line) => ({ label: `${agentName(line.agentId)} · ${line.model}`, values: line.buckets.map((bucket) => metricOf(bucket, metric)) })), [usage.series, metric, agentName]);
  const total = usage.series.reduce((sum, line) => sum + metricOf(line.totals, metric), 0);
  const shown = usage.complete && usage.series.length > 0;
  return (
    <div className="stack">
      <header className="page-header">
        <h1>Usage</h1>
      </header>
      <UsageControls filters={filters} agents={agents.data ?? []} onChange={setFilters} onRefresh={refresh} />
      <section className="card" aria-labelledby="usage-chart-title">
        <h2 id="usage-chart-title">
          {USAGE_METRICS[metric]}, {range.label.toLowerCase()}
        </h2>
        {agents.isPending ? <p role="status">Loading agents…</p> : null}
        {agents.isError ? <p role="alert">{describeError(agents.error)}</p> : null}
        {agents.data?.length === 0 ? <p className="hint">No agents, so no usage yet.</p> : null}
        {usage.answered < usage.requested ? (
          <p role="status">
            Reading usage… <progress max={usage.requested} value={usage.answered} aria-label="Usage requests answered" /> {usage.answered} of {usage.requested}
          </p>
        ) : null}
        {usage.failure ? <p role="alert">{describeError(usage.failure)}</p> : null}
        {usage.complete && usage.series.length === 0 ? <p className="hint">No tokens reported in this period.</p> : null}
        {shown ? (
          <>
            <p className="hint">{total.toLocaleString()} in all. Tasks count in the period they were enqueued in; usage is reported when a run ends.</p>
            <UsageChart bucketStarts={starts} lines={lines} description={`Line chart of ${USAGE_METRICS[metric].toLowerCase()} per agent and model, ${range.label.toLowerCase()}; the same numbers are in the table below.`} />
            <UsageBucketTable series={usage.series} bucketStarts={starts} bucketLabel={bucketLabel} metric={metric} agentName={agentName} />
          </>
        ) : null}
      </section>
      {shown ? (
        <section className="card" aria-labelledby="usage-totals-title">
          <h2 id="usage-totals-title">Totals</h2>
          <UsageTotalsTable series={usage.series} agentName={agentName} />
        </section>
      ) : null}
    </div>
  );
}
