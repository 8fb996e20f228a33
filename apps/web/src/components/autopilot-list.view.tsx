import { describeError } from '../api/api-error';
import type { Autopilot } from '../api/autopilots.api';
import { Pager, useClientPages } from './pager.view';

const PAGE_SIZE = 20;

/** The workspace's autopilots, newest first; choosing one opens it. */
export function AutopilotList(props: {
  readonly autopilots: readonly Autopilot[] | undefined;
  readonly loading: boolean;
  readonly error: unknown;
  readonly selectedId: string | undefined;
  readonly agentName: (agentId: string) => string;
  readonly onSelect: (autopilotId: string) => void;
}) {
  const { pageItems, pager } = useClientPages(props.autopilots ?? [], PAGE_SIZE, 'Autopilots pages');
  return (
    <section className="card" aria-labelledby="autopilot-list-title">
      <h2 id="autopilot-list-title">Autopilots</h2>
      {props.loading ? <p role="status">Loading autopilots…</p> : null}
      {props.error ? <p role="alert">{describeError(props.error)}</p> : null}
      {props.autopilots?.length === 0 ? <p className="hint">No autopilots yet.</p> : null}
      <ul className="link-list">
        {pageItems.map((autopilot) => (
          <li key={autopilot.id} data-testid="autopilot-list-item">
            <button type="button" className="list-button" aria-current={autopilot.id === props.selectedId ? 'true' : undefined} onClick={() => props.onSelect(autopilot.id)}>
              <span>
                {autopilot.name}
                {autopilot.enabled ? '' : ' (disabled)'}
              </span>
              <span className="hint">
                {props.agentName(autopilot.agentId)} · {autopilot.schedule ? <code>{autopilot.schedule}</code> : 'webhook / by hand'} · {autopilot.mode === 'run_only' ? 'run only' : 'creates issues'}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <Pager {...pager} />
    </section>
  );
}
