import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { describeError } from '../api/api-error';
import { agentKeys, findAgent, listAgents } from '../api/agents.api';
import { listRuntimes, runtimeKeys } from '../api/runtimes.api';
import { useRoleAtLeast } from '../session/session.context';
import { AgentForm } from '../components/agent-form.view';
import { AgentList } from '../components/agent-list.view';

/** The path segment that opens an empty form instead of an agent (agent ids are server-made, never this). */
const NEW_AGENT = 'new';

/** Agents: the list beside one agent's form (`/agents/:agentId`, `/agents/new`); admins edit, others read. */
export function AgentsPage() {
  const { agentId } = useParams();
  const navigate = useNavigate();
  const canEdit = useRoleAtLeast('admin');
  const [includeArchived, setIncludeArchived] = useState(false);
  const [saved, setSaved] = useState<{ readonly agentId: string | undefined; readonly text: string }>();
  const agents = useQuery({ queryKey: agentKeys.list(includeArchived), queryFn: () => listAgents({ includeArchived }) });
  const runtimes = useQuery({ queryKey: runtimeKeys.list('all'), queryFn: () => listRuntimes('all') });
  const creating = agentId === NEW_AGENT;
  const agent = useQuery({ queryKey: agentKeys.one(agentId ?? ''), queryFn: () => findAgent(agentId ?? ''), enabled: agentId !== undefined && !creating });
  return (
    <div className="two-pane">
      <header className="page-header">
        <h1>Agents</h1>
        {canEdit ? (
          <Link className="button primary" to={`/agents/${NEW_AGENT}`} data-testid="agent-new">
            New agent
          </Link>
        ) : null}
      </header>
      <AgentList
        agents={agents.data}
        runtimes={runtimes.data ?? []}
        loading={agents.isPending}
        error={agents.error}
        includeArchived={includeArchived}
        onIncludeArchived={setIncludeArchived}
      />
      <div className="pane-main">
        {/* Said where it happened only: another agent opened clears it. */}
        {saved && saved.agentId === agentId ? (
          <p role="status" className="notice" data-testid="agent-saved">
            {saved.text}
          </p>
        ) : null}
        {creating && !canEdit ? <p role="alert">Only admins create agents.</p> : null}
        {creating && canEdit ? (
          <AgentForm
            key="new"
            agent={undefined}
            canEdit
            onSaved={(created) => {
              setSaved({ agentId: created.id, text: `Created ${created.name}.` });
              void navigate(`/agents/${encodeURIComponent(created.id)}`);
            }}
            onArchived={() => undefined}
          />
        ) : null}
        {!creating && agentId === undefined ? (
          <section className="card">
            <p>Choose an agent to read{canEdit ? ' or change it, or create a new one' : ''}.</p>
          </section>
        ) : null}
        {!creating && agentId !== undefined && agent.isPending ? <p role="status">Loading the agent…</p> : null}
        {!creating && agent.isError ? <p role="alert">{describeError(agent.error)}</p> : null}
        {!creating && agent.data ? (
          // Keyed by the version: after a save the form starts again from what the API stored.
          <AgentForm
            key={`${agent.data.id}:${agent.data.updatedAt}:${agent.data.archivedAt ?? ''}`}
            agent={agent.data}
            canEdit={canEdit}
            onSaved={(changed) => setSaved({ agentId: changed.id, text: `Saved ${changed.name}.` })}
            onArchived={() => {
              setSaved({ agentId: undefined, text: 'Archived.' });
              void navigate('/agents');
            }}
          />
        ) : null}
      </div>
    </div>
  );
}
