import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { describeError } from '../api/api-error';
import { listRuntimes, runtimeKeys, type Daemon, type Runtime, type RuntimeStatus } from '../api/runtimes.api';
import { Pager, useClientPages } from './pager.view';

const PAGE_SIZE = 20;
/** Online state is derived from heartbeats when read: the list is read again now and then. */
const REFRESH_MS = 15_000;

const OFFLINE_REASONS: Record<NonNullable<Runtime['offlineReason']>, string> = {
  heartbeat_missed: 'heartbeats stopped',
  daemon_shutdown: 'its daemon shut down',
  not_detected: 'the CLI was not found any more',
};

/** The runtimes the workspace's daemons registered: online state, version, models, daemon. */
export function RuntimeList(props: { readonly daemons: readonly Daemon[] }) {
  const [status, setStatus] = useState<RuntimeStatus | 'all'>('all');
  const runtimes = useQuery({ queryKey: runtimeKeys.list(status), queryFn: () => listRuntimes(status), refetchInterval: REFRESH_MS });
  const { pageItems, pager } = useClientPages(runtimes.data ?? [], PAGE_SIZE, 'Runtimes pages');
  const daemonName = (daemonId: string) => props.daemons.find((daemon) => daemon.id === daemonId)?.name;
  return (
    <section className="card" aria-labelledby="runtimes-title">
      <div className="section-header">
        <h2 id="runtimes-title">Runtimes</h2>
        <label className="inline-label">
          Show
          <select value={status} onChange={(event) => setStatus(event.target.value as RuntimeStatus | 'all')}>
            <option value="all">all</option>
            <option value="online">online only</option>
            <option value="offline">offline only</option>
          </select>
        </label>
      </div>
      {runtimes.isPending ? <p role="status">Loading runtimes…</p> : null}
      {runtimes.isError ? <p role="alert">{describeError(runtimes.error)}</p> : null}
      {runtimes.data?.length === 0 ? <p className="hint">No runtimes{status === 'all' ? ': enroll a daemon on a machine with an agent CLI.' : ` ${status}.`}</p> : null}
      {pageItems.length > 0 ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Runtimes table">
          <table className="data-table stacked-on-narrow">
            <thead>
              <tr>
                <th scope="col">Runtime</th>
                <th scope="col">State</th>
                <th scope="col">Version</th>
                <th scope="col">Models</th>
                <th scope="col">Daemon</th>
                <th scope="col">Last seen</th>
              </tr>
            </thead>
            <tbody>
              {pageItems.map((runtime) => (
                <tr key={runtime.runtimeId} data-testid="runtime-row" data-runtime-id={runtime.runtimeId} data-status={runtime.status}>
                  <th scope="row">
                    {runtime.identity}
                    {runtime.provider ? <span className="hint"> ({runtime.provider})</span> : null}
                    <div className="hint monospace">{runtime.runtimeId}</div>
                    <div className="hint">
                      {runtime.protocolFamily} · <code>{runtime.commandName}</code> · capacity {runtime.capacity}
                    </div>
                  </th>
                  <td data-label="State">
                    <span className={`status-dot status-${runtime.status}`} aria-hidden="true" /> {runtime.status}
                    {runtime.status === 'offline' && runtime.offlineReason ? <div className="hint">{OFFLINE_REASONS[runtime.offlineReason]}</div> : null}
                  </td>
                  <td data-label="Version">{runtime.version}</td>
                  <td data-label="Models">
                    <RuntimeModels models={runtime.models} />
                  </td>
                  <td data-label="Daemon">
                    {daemonName(runtime.daemonId) ?? ''}
                    <div className="hint monospace">{runtime.daemonId}</div>
                  </td>
                  <td data-label="Last seen">
                    <time dateTime={runtime.lastSeenAt}>{new Date(runtime.lastSeenAt).toLocaleString()}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager {...pager} />
    </section>
  );
}

function RuntimeModels(props: { readonly models: readonly string[] }) {
  if (props.models.length === 0) return <span className="hint">not listed</span>;
  if (props.models.length <= 3) return <span>{props.models.join(', ')}</span>;
  return (
    <details>
      <summary>{props.models.length} models</summary>
      <ul className="compact-list">
        {props.models.map((model) => (
          <li key={model}>{model}</li>
        ))}
      </ul>
    </details>
  );
}
