import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { describeError } from '../api/api-error';
import { agentKeys, archiveAgent, createAgent, updateAgent, type Agent, type AgentInput } from '../api/agents.api';
import { AgentFields } from './agent-fields.view';
import { draftOf, inputOf, type AgentDraft } from './agent-form.model';
import { ConfirmDialog } from './dialog.view';

/** Create (no agent) or edit an agent; read-only for those who may not manage agents. */
export function AgentForm(props: { readonly agent: Agent | undefined; readonly canEdit: boolean; readonly onSaved: (agent: Agent) => void; readonly onArchived: () => void }) {
  const { agent, canEdit } = props;
  const queries = useQueryClient();
  const [draft, setDraft] = useState<AgentDraft>(() => draftOf(agent));
  const [problems, setProblems] = useState<readonly string[]>([]);
  const [confirmingArchive, setConfirmingArchive] = useState(false);
  const save = useMutation({
    mutationFn: (input: AgentInput) => (agent ? updateAgent(agent.id, input) : createAgent(input)),
    onSuccess: async (saved) => {
      queries.setQueryData(agentKeys.one(saved.id), saved);
      await queries.invalidateQueries({ queryKey: agentKeys.all });
      props.onSaved(saved);
    },
  });
  const archive = useMutation({
    mutationFn: () => archiveAgent(agent?.id ?? ''),
    onSuccess: async () => {
      setConfirmingArchive(false);
      await queries.invalidateQueries({ queryKey: agentKeys.all });
      props.onArchived();
    },
  });
  const change = (fields: Partial<AgentDraft>) => setDraft((current) => ({ ...current, ...fields }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = inputOf(draft);
    setProblems(checked.problems);
    if (checked.input) save.mutate(checked.input);
  };
  const readOnly = !canEdit || agent?.archivedAt != null;
  return (
    <form className="agent-form card" onSubmit={submit} aria-label={agent ? `Agent ${agent.name}` : 'New agent'} noValidate>
      <h2>{agent ? agent.name : 'New agent'}</h2>
      {agent?.archivedAt ? <p className="hint">Archived {new Date(agent.archivedAt).toLocaleString()}: it takes no new tasks and cannot change.</p> : null}
      {!canEdit ? <p className="hint">Only admins change agents; you can read this one.</p> : null}
      <AgentFields draft={draft} readOnly={readOnly} onChange={change} />
      {problems.length > 0 ? (
        <div role="alert">
          <p>Please fix:</p>
          <ul>
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {save.isError ? <p role="alert">{describeError(save.error)}</p> : null}
      {readOnly ? null : (
        <div className="form-actions">
          <button type="submit" className="primary" disabled={save.isPending} data-testid="agent-save">
            {save.isPending ? 'Saving…' : agent ? 'Save changes' : 'Create agent'}
          </button>
          {agent ? (
            <button type="button" className="danger" onClick={() => setConfirmingArchive(true)} data-testid="agent-archive">
              Archive
            </button>
          ) : null}
        </div>
      )}
      {confirmingArchive && agent ? (
        <ConfirmDialog
          title={`Archive ${agent.name}?`}
          confirmLabel="Archive"
          busyLabel="Archiving…"
          busy={archive.isPending}
          error={archive.error}
          onConfirm={() => archive.mutate()}
          onCancel={() => {
            setConfirmingArchive(false);
            archive.reset();
          }}
        >
          <p>It leaves the list and takes no new tasks; its unfinished tasks are cancelled. Finished tasks are kept.</p>
        </ConfirmDialog>
      ) : null}
    </form>
  );
}
