import { Link } from 'react-router-dom';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { describeError } from '../api/api-error';
import { autopilotKeys, autopilotSourceOf, listAgentTasks, type Autopilot } from '../api/autopilots.api';
import { taskKeys, taskStatusLabel, tasksApi } from '../api/tasks.api';
import { Pager, useCursorPages } from './pager.view';

const PAGE_SIZE = 25;

/**
 * The autopilot's firings as far as the API tells them. There is no history route: this pages
 * through its agent's tasks (newest first) and keeps those whose source names this autopilot,
 * reading each autopilot task's source from its detail. In `create_issue` mode a firing's task
 * comes from its issue, so those show as the agent's issue tasks.
 */
export function AutopilotHistory(props: { readonly autopilot: Autopilot }) {
  const { autopilot } = props;
  const pages = useCursorPages(autopilot.agentId);
  const page = useQuery({
    queryKey: autopilotKeys.agentTasks(autopilot.agentId, pages.cursor),
    queryFn: () => listAgentTasks({ agentId: autopilot.agentId, cursor: pages.cursor, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const wanted = autopilot.mode === 'run_only' ? 'autopilot' : 'issue';
  const candidates = (page.data?.tasks ?? []).filter((task) => task.sourceKind === wanted);
  // Only autopilot tasks need their source read: which autopilot fired them.
  const details = useQueries({
    queries: candidates
      .filter((task) => task.sourceKind === 'autopilot')
      .map((task) => ({ queryKey: taskKeys.detail(task.taskId), queryFn: () => tasksApi.find(task.taskId), staleTime: 60_000 })),
  });
  const detailOf = (taskId: string) => details.find((detail) => detail.data?.taskId === taskId)?.data;
  const rows = candidates.filter((task) => {
    if (task.sourceKind !== 'autopilot') return true;
    // Shown once its detail says this autopilot fired it.
    return autopilotSourceOf(detailOf(task.taskId))?.autopilotId === autopilot.id;
  });
  const reading = details.some((detail) => detail.isPending);
  const detailError = details.find((detail) => detail.isError)?.error;
  return (
    <section className="autopilot-history" aria-labelledby="autopilot-history-title">
      <h3 id="autopilot-history-title">History</h3>
      <p className="hint">
        {autopilot.mode === 'run_only'
          ? 'Tasks this autopilot fired, newest first.'
          : 'This autopilot makes issues: the agent’s issue tasks are listed, newest first (its issues are titled with its name).'}
        {autopilot.lastFiredMinute ? ` Last scheduled firing: ${new Date(autopilot.lastFiredMinute).toLocaleString()}.` : ''}
      </p>
      {page.isPending || reading ? <p role="status">Loading the history…</p> : null}
      {page.isError ? <p role="alert">{describeError(page.error)}</p> : null}
      {detailError ? <p role="alert">{describeError(detailError)}</p> : null}
      {page.data && rows.length === 0 && !reading ? <p className="hint">None on this page.</p> : null}
      {rows.length > 0 ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Autopilot history">
          <table className="data-table stacked-on-narrow">
            <thead>
              <tr>
                <th scope="col">Enqueued</th>
                <th scope="col">How</th>
                <th scope="col">Status</th>
                <th scope="col">Task</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((task) => {
                const source = autopilotSourceOf(detailOf(task.taskId));
                return (
                  <tr key={task.taskId} data-testid="autopilot-history-row">
                    <td data-label="Enqueued">{new Date(task.enqueuedAt).toLocaleString()}</td>
                    <td data-label="How">{source ? source.trigger : task.issueId ? 'issue' : '…'}</td>
                    <td data-label="Status">{taskStatusLabel(task.status)}</td>
                    <td data-label="Task">
                      {task.issueId ? <Link to={`/issues/${encodeURIComponent(task.issueId)}`}>issue {task.issueId}</Link> : <code>{task.taskId}</code>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager
        label="History pages"
        page={pages.page}
        hasPrevious={pages.page > 1}
        hasNext={Boolean(page.data?.nextCursor)}
        busy={page.isFetching}
        onPrevious={pages.goPrevious}
        onNext={() => {
          if (page.data?.nextCursor) pages.goNext(page.data.nextCursor);
        }}
      />
    </section>
  );
}
