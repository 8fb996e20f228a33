import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { describeError } from '../api/api-error';
import { autopilotKeys, runAutopilot, type Autopilot, type AutopilotFiring } from '../api/autopilots.api';

/** Fire an autopilot by hand, with an optional JSON payload; the firings of this visit are listed. */
export function AutopilotRun(props: { readonly autopilot: Autopilot }) {
  const queries = useQueryClient();
  const payloadId = useId();
  const [payloadText, setPayloadText] = useState('');
  const [problem, setProblem] = useState<string>();
  const [firings, setFirings] = useState<readonly AutopilotFiring[]>([]);
  const run = useMutation({
    mutationFn: (payload: unknown) => runAutopilot(props.autopilot.id, payload),
    onSuccess: async (firing) => {
      setFirings((known) => [firing, ...known]);
      await queries.invalidateQueries({ queryKey: ['tasks'] });
      await queries.invalidateQueries({ queryKey: autopilotKeys.all });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    if (payloadText.trim() === '') {
      run.mutate(undefined);
      return;
    }
    try {
      run.mutate(JSON.parse(payloadText));
    } catch (error) {
      setProblem(`The payload is not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return (
    <form className="autopilot-run" onSubmit={submit} aria-label="Run by hand">
      <h3>Run now</h3>
      <label htmlFor={payloadId}>Payload (optional JSON, shown to the agent)</label>
      <textarea id={payloadId} rows={3} className="monospace" spellCheck={false} value={payloadText} onChange={(event) => setPayloadText(event.target.value)} data-testid="autopilot-payload" />
      {problem ? <p role="alert">{problem}</p> : null}
      {run.isError ? <p role="alert">{describeError(run.error)}</p> : null}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={run.isPending} data-testid="autopilot-run">
          {run.isPending ? 'Firing…' : 'Run now'}
        </button>
        {!props.autopilot.enabled ? <span className="hint">Disabled: it still runs by hand.</span> : null}
      </div>
      {firings.length > 0 ? (
        <ul className="compact-list" aria-label="Fired just now" role="status">
          {firings.map((firing) => (
            <li key={firing.taskId}>
              Fired: task <code>{firing.taskId}</code>
              {firing.issueId ? (
                <>
                  {' '}
                  on issue <Link to={`/issues/${encodeURIComponent(firing.issueId)}`}>{firing.issueId}</Link>
                </>
              ) : null}
              {firing.repeated ? ' (a repeat of an earlier firing)' : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </form>
  );
}
