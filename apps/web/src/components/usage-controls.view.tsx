import type { Agent } from '../api/agents.api';
import { USAGE_METRICS, USAGE_RANGES, type UsageMetric, type UsageRangeName } from './usage-series.model';

export const ALL_AGENTS = '';

export interface UsageFilters {
  readonly rangeName: UsageRangeName;
  readonly metric: UsageMetric;
  /** An agent's id, or ALL_AGENTS. */
  readonly agentId: string;
  readonly includeArchived: boolean;
}

/** What the usage page shows: the period, which tokens, which agents. */
export function UsageControls(props: { readonly filters: UsageFilters; readonly agents: readonly Agent[]; readonly onChange: (filters: UsageFilters) => void; readonly onRefresh: () => void }) {
  const { filters } = props;
  const change = (fields: Partial<UsageFilters>) => props.onChange({ ...filters, ...fields });
  return (
    <form className="card usage-controls" aria-label="Usage filters" onSubmit={(event) => event.preventDefault()}>
      <label>
        Period
        <select value={filters.rangeName} onChange={(event) => change({ rangeName: event.target.value as UsageRangeName })} data-testid="usage-range">
          {Object.entries(USAGE_RANGES).map(([name, range]) => (
            <option key={name} value={name}>
              {range.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Tokens
        <select value={filters.metric} onChange={(event) => change({ metric: event.target.value as UsageMetric })} data-testid="usage-metric">
          {Object.entries(USAGE_METRICS).map(([name, label]) => (
            <option key={name} value={name}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Agent
        <select value={filters.agentId} onChange={(event) => change({ agentId: event.target.value })} data-testid="usage-agent">
          <option value={ALL_AGENTS}>All agents</option>
          {props.agents.map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agent.name}
              {agent.archivedAt ? ' (archived)' : ''}
            </option>
          ))}
        </select>
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={filters.includeArchived} onChange={(event) => change({ includeArchived: event.target.checked })} />
        Archived agents too
      </label>
      <button type="button" onClick={props.onRefresh}>
        Refresh
      </button>
    </form>
  );
}
