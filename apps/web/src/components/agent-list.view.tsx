import { NavLink } from 'react-router-dom';
import { describeError } from '../api/api-error';
import type { Agent } from '../api/agents.api';
import type { Runtime } from '../api/runtimes.api';
import { Pager, useClientPages } from './pager.view';

const PAGE_SIZE = 20;

/** The agents by name, each a link to its form; archived ones marked. */
export function AgentList(props: {
  readonly agents: readonly Agent[] | undefined;
  readonly runtimes: readonly Runtime[];
  readonly loading: boolean;
  readonly error: unknown;
  readonly includeArchived: boolean;
  readonly onIncludeArchived: (includeArchived: boolean) => void;
}) {
  const { pageItems, pager } = useClientPages(props.agents ?? [], PAGE_SIZE, 'Agents pages');
  const runtimeOf = (runtimeId: string) => props.runtimes.find((runtime) => runtime.runtimeId === runtimeId);
  return (
    <section className="agent-list card" aria-labelledby="agent-list-title">
      <h2 id="agent-list-title">Agents</h2>
      <label className="checkbox">
        <input type="checkbox" checked={props.includeArchived} onChange={(event) => props.onIncludeArchived(event.target.checked)} />
        Show archived agents
      </label>
      {props.loading ? <p role="status">Loading agents…</p> : null}
      {props.error ? <p role="alert">{describeError(props.error)}</p> : null}
      {props.agents?.length === 0 ? <p className="hint">No agents yet.</p> : null}
      <ul className="link-list">
        {pageItems.map((agent) => {
          const runtime = runtimeOf(agent.runtimeId);
          return (
            <li key={agent.id} data-testid="agent-list-item">
              <NavLink to={`/agents/${encodeURIComponent(agent.id)}`}>
                <span>{agent.name}</span>
                <span className="hint">
                  {runtime ? `${runtime.identity} · ` : ''}
                  {agent.model ?? 'default model'}
                  {runtime ? <span className={`status-dot status-${runtime.status}`} aria-label={`runtime ${runtime.status}`} /> : null}
                  {agent.archivedAt ? ' · archived' : ''}
                </span>
              </NavLink>
            </li>
          );
        })}
      </ul>
      <Pager {...pager} />
    </section>
  );
}
