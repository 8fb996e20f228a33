import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { describeError } from '../api/api-error';
import { ISSUE_PRIORITIES, useCreateIssue, type AgentSummary, type IssuePriority, type IssueStatus } from '../api/issues.api';
import { IssueAssigneeSelect, IssueStatusSelect } from './issue-fields.view';
import { MarkdownView } from './markdown.view';

interface IssueDraft {
  readonly title: string;
  readonly description: string;
  readonly project: string;
  readonly assigneeAgentId: string | null;
  readonly status: IssueStatus;
  readonly priority: IssuePriority;
}

const EMPTY_DRAFT: IssueDraft = { title: '', description: '', project: '', assigneeAgentId: null, status: 'todo', priority: 'none' };

function IssueCreateForm(props: {
  readonly titleId: string;
  readonly agents: readonly AgentSummary[];
  readonly projectNames: readonly string[];
  readonly onDone: () => void;
}) {
  const create = useCreateIssue();
  const [draft, setDraft] = useState<IssueDraft>(EMPTY_DRAFT);
  const [preview, setPreview] = useState(false);
  const set = (change: Partial<IssueDraft>) => setDraft((previous) => ({ ...previous, ...change }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const input = {
      title: draft.title,
      description: draft.description,
      status: draft.status,
      priority: draft.priority,
      assigneeAgentId: draft.assigneeAgentId,
      project: draft.project === '' ? null : draft.project,
    };
    create.mutate(input, { onSuccess: props.onDone });
  };
  return (
    <form onSubmit={submit} className="issue-create-form" aria-labelledby={props.titleId}>
      <label>
        Title
        <input required maxLength={500} value={draft.title} onChange={(event) => set({ title: event.target.value })} data-testid="issue-create-title" autoFocus />
      </label>
      <label>
        Description (markdown)
        <textarea rows={6} value={draft.description} onChange={(event) => set({ description: event.target.value })} data-testid="issue-create-description" />
      </label>
      <button type="button" className="issue-link-button" aria-pressed={preview} onClick={() => setPreview(!preview)}>
        {preview ? 'Hide preview' : 'Preview description'}
      </button>
      {preview ? <MarkdownView source={draft.description} className="card" empty="No description." /> : null}
      <div className="issue-create-row">
        <label className="issue-field">
          <span>Project</span>
          <select value={draft.project} onChange={(event) => set({ project: event.target.value })} data-testid="issue-create-project">
            <option value="">No project</option>
            {props.projectNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <IssueAssigneeSelect label="Assignee" value={draft.assigneeAgentId} agents={props.agents} onChange={(assigneeAgentId) => set({ assigneeAgentId })} testId="issue-create-assignee" />
        <IssueStatusSelect label="Status" value={draft.status} onChange={(status) => set({ status })} testId="issue-create-status" />
        <label className="issue-field">
          <span>Priority</span>
          <select value={draft.priority} onChange={(event) => set({ priority: event.target.value as IssuePriority })}>
            {ISSUE_PRIORITIES.map((priority) => (
              <option key={priority} value={priority}>
                {priority}
              </option>
            ))}
          </select>
        </label>
      </div>
      {draft.assigneeAgentId ? <p className="hint">The assignee gets a task as soon as the issue is created.</p> : null}
      {create.isError ? <p role="alert">{describeError(create.error)}</p> : null}
      <div className="issue-actions">
        <button type="button" onClick={props.onDone} disabled={create.isPending}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={create.isPending || draft.title.trim() === ''} data-testid="issue-create-submit">
          {create.isPending ? 'Saving…' : 'Create issue'}
        </button>
      </div>
    </form>
  );
}

/** A modal dialog (the browser's own: focus stays inside, Escape closes) to create an issue. */
export function IssueCreateDialog(props: {
  readonly open: boolean;
  readonly onClose: () => void;
  readonly agents: readonly AgentSummary[];
  readonly projectNames: readonly string[];
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (props.open && !element.open) element.showModal();
    if (!props.open && element.open) element.close();
  }, [props.open]);
  return (
    <dialog ref={dialog} className="issue-create-dialog" aria-labelledby={titleId} onClose={props.onClose} data-testid="issue-create-dialog">
      <h2 id={titleId}>New issue</h2>
      {/* Mounted only while open: every opening starts from an empty form. */}
      {props.open ? <IssueCreateForm titleId={titleId} agents={props.agents} projectNames={props.projectNames} onDone={props.onClose} /> : null}
    </dialog>
  );
}
