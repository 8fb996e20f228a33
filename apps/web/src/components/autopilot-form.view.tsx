import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { describeError } from '../api/api-error';
import type { Agent } from '../api/agents.api';
import { AUTOPILOT_MODES, autopilotKeys, createAutopilot, updateAutopilot, type Autopilot, type AutopilotInput, type AutopilotMode, type CreatedAutopilot } from '../api/autopilots.api';

const MODE_LABELS: Record<AutopilotMode, string> = {
  run_only: 'Run only: each firing is one task',
  create_issue: 'Create an issue: each firing makes an issue assigned to the agent',
};

/** Create (no autopilot) or change an autopilot. No schedule: it fires by webhook and by hand only. */
export function AutopilotForm(props: {
  readonly autopilot: Autopilot | undefined;
  readonly agents: readonly Agent[];
  readonly onCreated: (created: CreatedAutopilot) => void;
  readonly onSaved: (saved: Autopilot) => void;
  readonly onCancel: () => void;
}) {
  const { autopilot } = props;
  const queries = useQueryClient();
  const [name, setName] = useState(autopilot?.name ?? '');
  const [agentId, setAgentId] = useState(autopilot?.agentId ?? '');
  const [instructions, setInstructions] = useState(autopilot?.instructions ?? '');
  const [mode, setMode] = useState<AutopilotMode>(autopilot?.mode ?? 'run_only');
  const [scheduled, setScheduled] = useState(autopilot ? autopilot.schedule !== null : true);
  const [schedule, setSchedule] = useState(autopilot?.schedule ?? '0 9 * * 1-5');
  const [enabled, setEnabled] = useState(autopilot?.enabled ?? true);
  const save = useMutation({
    mutationFn: async (input: AutopilotInput): Promise<{ readonly kind: 'created'; readonly created: CreatedAutopilot } | { readonly kind: 'saved'; readonly saved: Autopilot }> =>
      autopilot ? { kind: 'saved', saved: await updateAutopilot(autopilot.id, input) } : { kind: 'created', created: await createAutopilot(input) },
    onSuccess: async (result) => {
      await queries.invalidateQueries({ queryKey: autopilotKeys.all });
      if (result.kind === 'created') props.onCreated(result.created);
      else props.onSaved(result.saved);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ name: name.trim(), agentId, instructions, mode, schedule: scheduled ? schedule.trim() : null, enabled });
  };
  const activeAgents = props.agents.filter((agent) => agent.archivedAt === null || agent.id === agentId);
  return (
    <form className="card autopilot-form" onSubmit={submit} aria-label={autopilot ? `Change ${autopilot.name}` : 'New autopilot'}>
      <h2>{autopilot ? `Change ${autopilot.name}` : 'New autopilot'}</h2>
      <div className="form-grid">
        <label>
          Name
          <input value={name} required maxLength={200} onChange={(event) => setName(event.target.value)} data-testid="autopilot-name" />
        </label>
        <label>
          Agent
          <select value={agentId} required onChange={(event) => setAgentId(event.target.value)} data-testid="autopilot-agent">
            <option value="">Choose an agent…</option>
            {activeAgents.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.name}
                {agent.archivedAt ? ' (archived)' : ''}
              </option>
            ))}
          </select>
        </label>
        <label>
          Mode
          <select value={mode} onChange={(event) => setMode(event.target.value as AutopilotMode)} data-testid="autopilot-mode">
            {AUTOPILOT_MODES.map((candidate) => (
              <option key={candidate} value={candidate}>
                {MODE_LABELS[candidate]}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="autopilot-trigger">
          <legend>Fires</legend>
          <label className="checkbox">
            <input type="radio" name="autopilot-trigger" checked={scheduled} onChange={() => setScheduled(true)} />
            On a schedule, and by webhook or by hand
          </label>
          <label className="checkbox">
            <input type="radio" name="autopilot-trigger" checked={!scheduled} onChange={() => setScheduled(false)} />
            By webhook or by hand only
          </label>
          {scheduled ? (
            <label>
              Schedule (cron, 5 fields, UTC)
              <input value={schedule} required maxLength={200} spellCheck={false} className="monospace" onChange={(event) => setSchedule(event.target.value)} data-testid="autopilot-schedule" />
              <span className="hint">minute hour day-of-month month day-of-week, e.g. <code>0 9 * * 1-5</code> (09:00 UTC on weekdays), <code>*/15 * * * *</code>.</span>
            </label>
          ) : null}
        </fieldset>
        <label className="checkbox">
          <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} data-testid="autopilot-enabled" />
          Enabled (a disabled autopilot is not scheduled and refuses its webhook; it still runs by hand)
        </label>
        <label className="form-wide">
          Instructions
          <textarea rows={6} value={instructions} required onChange={(event) => setInstructions(event.target.value)} data-testid="autopilot-instructions" />
        </label>
      </div>
      {save.isError ? <p role="alert">{describeError(save.error)}</p> : null}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={save.isPending} data-testid="autopilot-save">
          {save.isPending ? 'Saving…' : autopilot ? 'Save changes' : 'Create autopilot'}
        </button>
        <button type="button" onClick={props.onCancel} disabled={save.isPending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
