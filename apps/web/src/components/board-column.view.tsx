import { useState, type DragEvent } from 'react';
import { ISSUE_STATUS_LABELS, type AgentSummary, type Issue, type IssueStatus, type UpdateIssueInput } from '../api/issues.api';
import { ISSUE_DRAG_TYPE, IssueCardView } from './issue-card.view';

/** One status of the board: its issues, and a drop target that moves a dragged card here. */
export function BoardColumnView(props: {
  readonly status: IssueStatus;
  readonly issues: readonly Issue[];
  readonly agents: readonly AgentSummary[];
  readonly canWrite: boolean;
  readonly draggingId: string | undefined;
  readonly onDragChange: (issueId: string | undefined) => void;
  readonly onDropIssue: (issueId: string, status: IssueStatus) => void;
  readonly onChangeIssue: (issue: Issue, change: UpdateIssueInput) => void;
}) {
  const [over, setOver] = useState(false);
  const headingId = `board-column-${props.status}-heading`;
  const accepts = (event: DragEvent) => props.canWrite && event.dataTransfer.types.includes(ISSUE_DRAG_TYPE);
  return (
    <section
      className={over ? 'board-column drop-target' : 'board-column'}
      aria-labelledby={headingId}
      data-testid={`board-column-${props.status}`}
      onDragOver={(event) => {
        if (!accepts(event)) return;
        // Accepting the drop is what preventDefault means here.
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        setOver(true);
      }}
      onDragLeave={(event) => {
        // Leaving for a card inside the column is not leaving the column.
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(event) => {
        setOver(false);
        if (!accepts(event)) return;
        event.preventDefault();
        const issueId = event.dataTransfer.getData(ISSUE_DRAG_TYPE);
        if (issueId) props.onDropIssue(issueId, props.status);
      }}
    >
      <h2 id={headingId} className="board-column-heading">
        {ISSUE_STATUS_LABELS[props.status]} <span className="board-count">
          {props.issues.length}
          <span className="visually-hidden"> issues</span>
        </span>
      </h2>
      <ul className="board-cards">
        {props.issues.map((issue) => (
          <IssueCardView
            key={issue.id}
            issue={issue}
            agents={props.agents}
            canWrite={props.canWrite}
            dragging={props.draggingId === issue.id}
            onDragChange={props.onDragChange}
            onChange={props.onChangeIssue}
          />
        ))}
      </ul>
      {props.issues.length === 0 ? <p className="hint board-empty">No issues.</p> : null}
    </section>
  );
}
