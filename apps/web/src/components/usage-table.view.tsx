import { TOKEN_FIELDS } from '../api/usage.api';
import { USAGE_METRICS, metricOf, type UsageMetric, type UsageSeries } from './usage-series.model';

const FIELD_LABELS = { inputTokens: 'Input', outputTokens: 'Output', cacheReadTokens: 'Cache read', cacheWriteTokens: 'Cache write' } as const;

/** The chart's numbers as a table: one row per agent and model, one column per bucket, then the range's total. */
export function UsageBucketTable(props: {
  readonly series: readonly UsageSeries[];
  readonly bucketStarts: readonly Date[];
  readonly bucketLabel: (start: Date) => string;
  readonly metric: UsageMetric;
  readonly agentName: (agentId: string) => string;
}) {
  const { series, metric } = props;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="usage-bucket-caption">
      <table className="data-table numeric" data-testid="usage-table">
        <caption id="usage-bucket-caption">{USAGE_METRICS[metric]} per period</caption>
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col">Model</th>
            {props.bucketStarts.map((start) => (
              <th scope="col" key={start.toISOString()}>
                <time dateTime={start.toISOString()}>{props.bucketLabel(start)}</time>
              </th>
            ))}
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {series.map((line) => (
            <tr key={line.key} data-testid="usage-row" data-agent-id={line.agentId} data-model={line.model}>
              <th scope="row">{props.agentName(line.agentId)}</th>
              <td className="text">
                {line.model}
                <span className="hint"> ({line.provider})</span>
              </td>
              {line.buckets.map((bucket, index) => (
                <td key={props.bucketStarts[index]?.toISOString() ?? index}>{metricOf(bucket, metric).toLocaleString()}</td>
              ))}
              <td>
                <strong>{metricOf(line.totals, metric).toLocaleString()}</strong>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Every kind of token over the whole range, per agent and model. */
export function UsageTotalsTable(props: { readonly series: readonly UsageSeries[]; readonly agentName: (agentId: string) => string }) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="usage-totals-caption">
      <table className="data-table numeric" data-testid="usage-totals">
        <caption id="usage-totals-caption">Tokens over the whole range</caption>
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col">Model</th>
            {TOKEN_FIELDS.map((field) => (
              <th scope="col" key={field}>
                {FIELD_LABELS[field]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.series.map((line) => (
            <tr key={line.key}>
              <th scope="row">{props.agentName(line.agentId)}</th>
              <td className="text">{line.model}</td>
              {TOKEN_FIELDS.map((field) => (
                <td key={field}>{line.totals[field].toLocaleString()}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
