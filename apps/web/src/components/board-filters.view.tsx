import type { AgentSummary } from '../api/issues.api';

/**
 * Filter values: '' is everything, NONE the issues without one. Names are trimmed by the gateway,
 * so no project can be called this.
 */
export const NONE = ' none';

export interface BoardFilters {
  /** A project's name (issues name their project by it), NONE, or ''. */
  readonly project: string;
  /** The assignee agent's id, NONE, or ''. */
  readonly assignee: string;
  /** An agent whose latest tasks worked on the issue, or ''. */
  readonly agent: string;
}

function FilterSelect(props: {
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly options: ReadonlyArray<{ readonly value: string; readonly label: string }>;
  readonly testId: string;
}) {
  return (
    <label className="issue-field">
      <span>{props.label}</span>
      <select value={props.value} onChange={(event) => props.onChange(event.target.value)} data-testid={props.testId}>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Project, assignee and the agent that worked on an issue; kept in the address, so a filtered board can be shared. */
export function BoardFiltersView(props: {
  readonly filters: BoardFilters;
  readonly onChange: (filters: BoardFilters) => void;
  readonly projectNames: readonly string[];
  readonly agents: readonly AgentSummary[];
}) {
  const { filters } = props;
  const agentOptions = props.agents.map((agent) => ({ value: agent.id, label: agent.name }));
  const active = filters.project !== '' || filters.assignee !== '' || filters.agent !== '';
  return (
    <div className="board-filters" role="group" aria-label="Filter issues">
      <FilterSelect
        label="Project"
        value={filters.project}
        onChange={(project) => props.onChange({ ...filters, project })}
        options={[{ value: '', label: 'All projects' }, { value: NONE, label: 'No project' }, ...props.projectNames.map((name) => ({ value: name, label: name }))]}
        testId="board-filter-project"
      />
      <FilterSelect
        label="Assignee"
        value={filters.assignee}
        onChange={(assignee) => props.onChange({ ...filters, assignee })}
        options={[{ value: '', label: 'Anyone' }, { value: NONE, label: 'Unassigned' }, ...agentOptions]}
        testId="board-filter-assignee"
      />
      <FilterSelect
        label="Worked on by agent"
        value={filters.agent}
        onChange={(agent) => props.onChange({ ...filters, agent })}
        options={[{ value: '', label: 'Any agent' }, ...agentOptions]}
        testId="board-filter-agent"
      />
      {active ? (
        <button type="button" onClick={() => props.onChange({ project: '', assignee: '', agent: '' })}>
          Clear filters
        </button>
      ) : null}
    </div>
  );
}
