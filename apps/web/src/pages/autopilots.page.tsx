import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { describeError } from '../api/api-error';
import { agentKeys, listAgents } from '../api/agents.api';
import { autopilotKeys, listAutopilots, type CreatedAutopilot } from '../api/autopilots.api';
import { useRoleAtLeast } from '../session/session.context';
import { AutopilotDetail, AutopilotSecretDialog } from '../components/autopilot-detail.view';
import { AutopilotForm } from '../components/autopilot-form.view';
import { AutopilotList } from '../components/autopilot-list.view';

/** Autopilots: standing instructions to an agent, fired on a cron schedule, by webhook or by hand (`?autopilot=<id>` opens one). */
export function AutopilotsPage() {
  const canManage = useRoleAtLeast('admin');
  const canRun = useRoleAtLeast('member');
  const [search, setSearch] = useSearchParams();
  const selectedId = search.get('autopilot') ?? undefined;
  // 'new', or the id of the autopilot being changed.
  const [editing, setEditing] = useState<string>();
  const [created, setCreated] = useState<CreatedAutopilot>();
  const autopilots = useQuery({ queryKey: autopilotKeys.list, queryFn: listAutopilots });
  const agents = useQuery({ queryKey: agentKeys.list(true), queryFn: () => listAgents({ includeArchived: true }) });
  const agentName = (agentId: string) => agents.data?.find((agent) => agent.id === agentId)?.name ?? agentId;
  const select = (autopilotId: string | undefined) => {
    setEditing(undefined);
    setSearch(autopilotId ? { autopilot: autopilotId } : {});
  };
  const selected = autopilots.data?.find((autopilot) => autopilot.id === selectedId);
  const editingSelected = editing !== undefined && editing === selected?.id;
  return (
    <div className="two-pane">
      <header className="page-header">
        <h1>Autopilots</h1>
        {canManage ? (
          <button type="button" className="primary" onClick={() => setEditing('new')} data-testid="autopilot-new">
            New autopilot
          </button>
        ) : null}
      </header>
      <AutopilotList autopilots={autopilots.data} loading={autopilots.isPending} error={autopilots.error} selectedId={selectedId} agentName={agentName} onSelect={select} />
      <div className="pane-main">
        {agents.isError ? <p role="alert">{describeError(agents.error)}</p> : null}
        {editing === 'new' ? (
          <AutopilotForm
            key="new"
            autopilot={undefined}
            agents={agents.data ?? []}
            onCreated={(made) => {
              setCreated(made);
              select(made.id);
            }}
            onSaved={() => setEditing(undefined)}
            onCancel={() => setEditing(undefined)}
          />
        ) : null}
        {editingSelected && selected ? (
          <AutopilotForm key={selected.id} autopilot={selected} agents={agents.data ?? []} onCreated={() => undefined} onSaved={() => setEditing(undefined)} onCancel={() => setEditing(undefined)} />
        ) : null}
        {editing === undefined && selected ? (
          <AutopilotDetail
            key={selected.id}
            autopilot={selected}
            agentName={agentName(selected.agentId)}
            canManage={canManage}
            canRun={canRun}
            onEdit={() => setEditing(selected.id)}
            onDeleted={() => select(undefined)}
          />
        ) : null}
        {editing === undefined && !selected ? (
          <section className="card">
            {selectedId && autopilots.data ? <p role="alert">No such autopilot (it may have been deleted).</p> : <p>Choose an autopilot{canManage ? ', or make a new one' : ''}.</p>}
          </section>
        ) : null}
      </div>
      {created ? <AutopilotSecretDialog created={created} onClose={() => setCreated(undefined)} /> : null}
    </div>
  );
}
