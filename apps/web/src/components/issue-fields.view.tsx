import { describeError } from '../api/api-error';
import {
  ISSUE_STATUSES,
  ISSUE_STATUS_LABELS,
  useAssignableAgents,
  useUpdateIssue,
  type AgentSummary,
  type Issue,
  type IssueStatus,
  type UpdateIssueInput,
} from '../api/issues.api';
import { useRoleAtLeast } from '../session/session.context';

export function IssueStatusSelect(props: {
  readonly label: string;
  readonly value: IssueStatus;
  readonly onChange: (status: IssueStatus) => void;
  readonly disabled?: boolean;
  readonly testId?: string;
  /** On a card the select speaks for itself; the label, naming the issue, is for screen readers. */
  readonly hideLabel?: boolean;
}) {
  return (
    <label className="issue-field">
      <span className={props.hideLabel ? 'visually-hidden' : undefined}>{props.label}</span>
      <select
        value={props.value}
        disabled={props.disabled}
        data-testid={props.testId}
        onChange={(event) => props.onChange(event.target.value as IssueStatus)}
      >
        {ISSUE_STATUSES.map((status) => (
          <option key={status} value={status}>
            {ISSUE_STATUS_LABELS[status]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** An agent's id, or '' for nobody. An archived assignee no longer listed still shows by its id. */
export function IssueAssigneeSelect(props: {
  readonly label: string;
  readonly value: string | null;
  readonly agents: readonly AgentSummary[];
  readonly onChange: (agentId: string | null) => void;
  readonly disabled?: boolean;
  readonly testId?: string;
  /** On a card the select speaks for itself; the label, naming the issue, is for screen readers. */
  readonly hideLabel?: boolean;
}) {
  const known = props.value === null || props.agents.some((agent) => agent.id === props.value);
  return (
    <label className="issue-field">
      <span className={props.hideLabel ? 'visually-hidden' : undefined}>{props.label}</span>
      <select
        value={props.value ?? ''}
        disabled={props.disabled}
        data-testid={props.testId}
        onChange={(event) => props.onChange(event.target.value === '' ? null : event.target.value)}
      >
        <option value="">Unassigned</option>
        {known ? null : <option value={props.value ?? ''}>{`agent ${props.value ?? ''} (archived)`}</option>}
        {props.agents.map((agent) => (
          <option key={agent.id} value={agent.id}>
            {agent.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Status and assignee of one issue, saved as soon as they change. */
export function IssueFieldsView(props: { readonly issue: Issue }) {
  const canWrite = useRoleAtLeast('member');
  const agents = useAssignableAgents();
  const update = useUpdateIssue();
  const save = (change: UpdateIssueInput) => update.mutate({ issueId: props.issue.id, change });
  return (
    <div className="issue-fields">
      <IssueStatusSelect
        label="Status"
        value={props.issue.status}
        disabled={!canWrite}
        onChange={(status) => save({ status })}
        testId="issue-status"
      />
      <IssueAssigneeSelect
        label="Assignee"
        value={props.issue.assigneeAgentId}
        agents={agents.data ?? []}
        disabled={!canWrite}
        onChange={(assigneeAgentId) => save({ assigneeAgentId })}
        testId="issue-assignee"
      />
      <p className="issue-field-static">
        <span className="hint">Project</span> {props.issue.project ?? 'none'}
      </p>
      <p className="issue-field-static">
        <span className="hint">Priority</span> {props.issue.priority}
      </p>
      {update.isPending ? (
        <p className="hint" role="status">
          Saving…
        </p>
      ) : null}
      {update.isError ? <p role="alert">{describeError(update.error)}</p> : null}
    </div>
  );
}
