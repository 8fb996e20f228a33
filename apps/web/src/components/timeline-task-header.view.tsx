import { describeError } from '../api/api-error';
import { isFinishedTaskStatus, taskStatusLabel, useCancelTask, useRerunTask, type RepositoryWork, type TaskDetail } from '../api/tasks.api';
import { useRoleAtLeast } from '../session/session.context';
import type { TaskStatusFrame } from '../timeline/timeline.types';

/** Why the task is where it is: the live frame's reason first, then what the gateway recorded. */
function reasonOf(task: TaskDetail | undefined, live: TaskStatusFrame | undefined): string | undefined {
  if (live?.reason) return live.reason;
  if (task?.failure) return `${task.failure.reason}: ${task.failure.message}`;
  if (task?.cancellation) return task.cancellation.reason ?? `cancelled by ${task.cancellation.by.kind}`;
  if (task?.cancelRequested && !isFinishedTaskStatus(task.status)) return 'cancel requested';
  return undefined;
}

function RepositoryLine(props: { readonly repository: RepositoryWork }) {
  const { repository } = props;
  return (
    <li>
      <strong>{repository.name}</strong>
      {repository.branch ? (
        <>
          {' '}
          on <code>{repository.branch}</code>
        </>
      ) : null}
      {': '}
      {repository.filesChanged} file{repository.filesChanged === 1 ? '' : 's'} changed, <span className="diff-added">+{repository.insertions}</span>{' '}
      <span className="diff-removed">−{repository.deletions}</span>
      {repository.uncommittedFiles > 0 ? `, ${repository.uncommittedFiles} uncommitted` : ''}
      {repository.headCommit ? (
        <>
          {' '}
          at <code>{repository.headCommit.slice(0, 10)}</code>
        </>
      ) : null}
    </li>
  );
}

/** A task's status, reason, connection and repositories, with Cancel and Rerun. */
export function TimelineTaskHeader(props: {
  readonly taskId: string;
  readonly issueId: string | undefined;
  readonly task: TaskDetail | undefined;
  readonly live: TaskStatusFrame | undefined;
}) {
  const { taskId, task } = props;
  const canCancel = useRoleAtLeast('member');
  const cancel = useCancelTask(props.issueId);
  const rerun = useRerunTask(props.issueId);
  // Live frames replay every status change in order: the latest one is the truth once it came.
  const status = props.live?.status ?? task?.status;
  const finished = status !== undefined && isFinishedTaskStatus(status);
  const reason = reasonOf(task, props.live);
  const busy = cancel.isPending || rerun.isPending;
  return (
    <div className="timeline-header">
      <p className="timeline-status-line">
        <span className={`timeline-task-status timeline-task-status-${status ?? 'unknown'}`} data-testid={`task-status-${taskId}`} data-status={status ?? ''}>
          {status ? taskStatusLabel(status) : 'Loading…'}
        </span>
        {task && task.attempt > 1 ? <span className="hint"> attempt {task.attempt} of {task.maxAttempts}</span> : null}
        {task?.connection === 'reconnecting' && !finished ? (
          <span className="timeline-badge badge-warning" data-testid={`task-connection-${taskId}`}>
            connection: reconnecting
          </span>
        ) : null}
        {reason ? <span className="task-reason"> {reason}</span> : null}
      </p>
      {task && task.repositories.length > 0 ? (
        <ul className="timeline-repositories" aria-label="Repositories">
          {task.repositories.map((repository) => (
            <RepositoryLine key={repository.name} repository={repository} />
          ))}
        </ul>
      ) : null}
      {canCancel ? (
        <div className="issue-actions">
          <button
            type="button"
            data-testid={`task-cancel-${taskId}`}
            disabled={busy || finished || status === undefined || task?.cancelRequested === true}
            onClick={() => cancel.mutate(taskId)}
          >
            {cancel.isPending ? 'Cancelling…' : 'Cancel'}
          </button>
          <button type="button" data-testid={`task-rerun-${taskId}`} disabled={busy || !finished} onClick={() => rerun.mutate(taskId)}>
            {rerun.isPending ? 'Starting…' : 'Rerun'}
          </button>
        </div>
      ) : null}
      {cancel.isError ? <p role="alert">{describeError(cancel.error)}</p> : null}
      {rerun.isError ? <p role="alert">{describeError(rerun.error)}</p> : null}
      {rerun.isSuccess ? (
        <p className="hint" role="status">
          Rerun queued as task {rerun.data.taskId}.
        </p>
      ) : null}
    </div>
  );
}
