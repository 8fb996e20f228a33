import { useState } from 'react';
import { describeError } from '../api/api-error';
import type { AgentSummary } from '../api/issues.api';
import { taskStatusLabel, type IssueTaskReference } from '../api/tasks.api';
import { TimelineView } from '../timeline/timeline.view';

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function TaskSection(props: {
  readonly task: IssueTaskReference;
  readonly issueId: string;
  readonly agentName: string;
  readonly expanded: boolean;
  readonly onToggle: (expanded: boolean) => void;
}) {
  const { task } = props;
  return (
    <li className="card issue-task" data-testid={`task-${task.taskId}`}>
      {/* Only an open task is subscribed: a long history does not open a feed per task. */}
      <details open={props.expanded} onToggle={(event) => props.onToggle(event.currentTarget.open)}>
        <summary>
          <span className="issue-task-agent">{props.agentName}</span>{' '}
          <span className={`timeline-task-status timeline-task-status-${task.status}`}>{taskStatusLabel(task.status)}</span>{' '}
          <time className="hint" dateTime={task.enqueuedAt}>
            {timeFormat.format(new Date(task.enqueuedAt))}
          </time>
        </summary>
        {props.expanded ? <TimelineView taskId={task.taskId} issueId={props.issueId} /> : null}
      </details>
    </li>
  );
}

/** The issue's tasks, newest first; the newest is open unless the reader closed it. */
export function IssueTasksView(props: {
  readonly issueId: string;
  readonly tasks: readonly IssueTaskReference[] | undefined;
  readonly error: unknown;
  readonly agents: readonly AgentSummary[];
}) {
  // Open or closed per task. The newest opens once, when it appears; what was open stays open, so a
  // rerun or a new mention does not close the run the reader was watching.
  const [open, setOpen] = useState<ReadonlyMap<string, boolean>>(new Map());
  const newest = props.tasks?.[0]?.taskId;
  if (newest !== undefined && !open.has(newest)) setOpen(new Map(open).set(newest, true));
  const agentName = (agentId: string) => props.agents.find((agent) => agent.id === agentId)?.name ?? `agent ${agentId}`;
  return (
    <section className="issue-tasks" aria-labelledby="issue-tasks-heading">
      <h2 id="issue-tasks-heading">Tasks</h2>
      {props.error ? <p role="alert">{describeError(props.error)}</p> : null}
      {props.tasks === undefined && !props.error ? (
        <p className="loading" role="status">
          Loading tasks…
        </p>
      ) : null}
      {props.tasks?.length === 0 ? <p className="hint">No task has run for this issue yet: assign an agent or mention one in a comment.</p> : null}
      <ol className="issue-task-list">
        {props.tasks?.map((task) => (
          <TaskSection
            key={task.taskId}
            task={task}
            issueId={props.issueId}
            agentName={agentName(task.agentId)}
            expanded={open.get(task.taskId) ?? false}
            onToggle={(expanded) => {
              // <details> also reports the toggles React made (the first render with `open`): only a change counts.
              setOpen((previous) => ((previous.get(task.taskId) ?? false) === expanded ? previous : new Map(previous).set(task.taskId, expanded)));
            }}
          />
        ))}
      </ol>
    </section>
  );
}
