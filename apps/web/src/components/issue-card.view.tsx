import { useEffect, useRef, type DragEvent } from 'react';
import { Link } from 'react-router-dom';
import { useIssueSaving, type AgentSummary, type Issue, type UpdateIssueInput } from '../api/issues.api';
import { IssueAssigneeSelect, IssueStatusSelect } from './issue-fields.view';

/** The drag payload's type: only our cards are accepted by a column (not dropped text or files). */
export const ISSUE_DRAG_TYPE = 'application/x-switchyard-issue';

/**
 * The issue whose status select moved it: its card is mounted anew in the other column (and back,
 * when the gateway refuses), and the keyboard's focus follows it instead of falling to the page.
 */
let focusAfterMove: { readonly issueId: string; readonly until: number } | undefined;
const FOCUS_FOLLOWS_MS = 5_000;

/**
 * One issue on the board: its title (a link to the issue), project and assignee, and a status and
 * an assignee select, the keyboard's way to do what dragging does.
 */
export function IssueCardView(props: {
  readonly issue: Issue;
  readonly agents: readonly AgentSummary[];
  readonly canWrite: boolean;
  readonly dragging: boolean;
  readonly onDragChange: (issueId: string | undefined) => void;
  /** Saved by the board: a card that changes column is mounted anew, and would lose the outcome. */
  readonly onChange: (issue: Issue, change: UpdateIssueInput) => void;
}) {
  const { issue } = props;
  const saving = useIssueSaving(issue.id);
  const controls = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focusAfterMove?.issueId !== issue.id || Date.now() > focusAfterMove.until) return;
    // Only focus that fell to the page is brought back; a reader who went on elsewhere stays there.
    if (document.activeElement !== null && document.activeElement !== document.body) return;
    controls.current?.querySelector('select')?.focus();
  }, [issue.id]);
  const assignee = issue.assigneeAgentId === null ? undefined : (props.agents.find((agent) => agent.id === issue.assigneeAgentId)?.name ?? 'an archived agent');
  const onDragStart = (event: DragEvent<HTMLLIElement>) => {
    event.dataTransfer.setData(ISSUE_DRAG_TYPE, issue.id);
    event.dataTransfer.setData('text/plain', issue.title);
    event.dataTransfer.effectAllowed = 'move';
    props.onDragChange(issue.id);
  };
  const classes = ['card', 'board-card', props.dragging ? 'dragging' : '', saving ? 'saving' : ''].filter(Boolean).join(' ');
  return (
    <li
      className={classes}
      draggable={props.canWrite && !saving}
      onDragStart={onDragStart}
      onDragEnd={() => props.onDragChange(undefined)}
      aria-busy={saving}
      data-testid={`issue-card-${issue.id}`}
      data-status={issue.status}
    >
      <h3 className="board-card-title">
        <Link to={`/issues/${encodeURIComponent(issue.id)}`}>{issue.title}</Link>
      </h3>
      <p className="board-card-meta">
        {issue.project ? <span className="board-chip">{issue.project}</span> : null}
        <span className={assignee ? 'board-assignee' : 'board-assignee hint'}>{assignee ? `@${assignee}` : 'Unassigned'}</span>
        {issue.priority !== 'none' ? <span className={`board-chip priority-${issue.priority}`}>{issue.priority}</span> : null}
      </p>
      {props.canWrite ? (
        <div className="board-card-controls" ref={controls}>
          <IssueStatusSelect
            label={`Status of “${issue.title}”`}
            value={issue.status}
            onChange={(status) => {
              focusAfterMove = { issueId: issue.id, until: Date.now() + FOCUS_FOLLOWS_MS };
              props.onChange(issue, { status });
            }}
            testId={`issue-card-status-${issue.id}`}
            hideLabel
          />
          <IssueAssigneeSelect
            label={`Assignee of “${issue.title}”`}
            value={issue.assigneeAgentId}
            agents={props.agents}
            onChange={(assigneeAgentId) => props.onChange(issue, { assigneeAgentId })}
            testId={`issue-card-assignee-${issue.id}`}
            hideLabel
          />
        </div>
      ) : null}
      {saving ? (
        <p className="hint" role="status">
          Saving…
        </p>
      ) : null}
    </li>
  );
}
