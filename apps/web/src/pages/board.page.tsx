import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { describeError } from '../api/api-error';
import {
  ISSUE_LIST_MAXIMUM,
  ISSUE_STATUSES,
  useAssignableAgents,
  useIssues,
  useProjects,
  useUpdateIssue,
  type AgentSummary,
  type Issue,
  type IssueStatus,
  type UpdateIssueInput,
} from '../api/issues.api';
import { useIssuesWorkedOnBy } from '../api/tasks.api';
import { BoardColumnView } from '../components/board-column.view';
import { BoardFiltersView, NONE, type BoardFilters } from '../components/board-filters.view';
import { IssueCreateDialog } from '../components/issue-create.dialog';
import { useBoardLiveRefresh } from '../components/issue-live.hook';
import { useRoleAtLeast } from '../session/session.context';

const PAGE_SIZE = 100;

function filtersOf(search: URLSearchParams): BoardFilters {
  return { project: search.get('project') ?? '', assignee: search.get('assignee') ?? '', agent: search.get('agent') ?? '' };
}

/** The assignee is filtered by the gateway; the project and the agent that worked on it here. */
function visibleIssues(issues: readonly Issue[], filters: BoardFilters, workedOn: ReadonlySet<string> | undefined): Issue[] {
  return issues.filter((issue) => {
    if (filters.project === NONE ? issue.project !== null : filters.project !== '' && issue.project !== filters.project) return false;
    if (filters.assignee === NONE && issue.assigneeAgentId !== null) return false;
    if (filters.agent !== '' && !(workedOn?.has(issue.id) ?? false)) return false;
    return true;
  });
}

function byStatus(issues: readonly Issue[]): Record<IssueStatus, Issue[]> {
  const columns = Object.fromEntries(ISSUE_STATUSES.map((status) => [status, [] as Issue[]])) as Record<IssueStatus, Issue[]>;
  for (const issue of issues) columns[issue.status].push(issue);
  return columns;
}

/**
 * The columns, and every change made on them (a drop, a card's selects). The outcome is kept here:
 * a card that changes column is mounted anew and would lose it.
 */
function BoardColumns(props: { readonly issues: readonly Issue[]; readonly agents: readonly AgentSummary[]; readonly canWrite: boolean }) {
  const update = useUpdateIssue();
  const [failure, setFailure] = useState<string>();
  const [draggingId, setDraggingId] = useState<string>();
  const columns = useMemo(() => byStatus(props.issues), [props.issues]);
  const changeIssue = (issue: Issue, change: UpdateIssueInput) =>
    update.mutate(
      { issueId: issue.id, change },
      {
        onSuccess: () => setFailure(undefined),
        onError: (error) => setFailure(`Could not save “${issue.title}”: ${describeError(error)}`),
      },
    );
  const moveIssue = (issueId: string, status: IssueStatus) => {
    const issue = props.issues.find((candidate) => candidate.id === issueId);
    if (issue && issue.status !== status) changeIssue(issue, { status });
  };
  return (
    <>
      {failure ? <p role="alert">{failure}</p> : null}
      <div className="board-columns">
        {ISSUE_STATUSES.map((status) => (
          <BoardColumnView
            key={status}
            status={status}
            issues={columns[status]}
            agents={props.agents}
            canWrite={props.canWrite}
            draggingId={draggingId}
            onDragChange={setDraggingId}
            onDropIssue={moveIssue}
            onChangeIssue={changeIssue}
          />
        ))}
      </div>
    </>
  );
}

/** The workspace's issues in a column per status, live: drag a card (or pick its status) to move it. */
export function BoardPage() {
  const canWrite = useRoleAtLeast('member');
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => filtersOf(search), [search]);
  const [limit, setLimit] = useState(PAGE_SIZE);
  const [creating, setCreating] = useState(false);
  const issues = useIssues({ assigneeAgentId: filters.assignee === '' || filters.assignee === NONE ? undefined : filters.assignee, limit });
  const agents = useAssignableAgents();
  const projects = useProjects();
  const workedOn = useIssuesWorkedOnBy(filters.agent === '' ? undefined : filters.agent);
  useBoardLiveRefresh();

  const projectNames = useMemo(() => {
    // Issues may name a project that was deleted since: it stays a filter choice.
    const names = new Set([...(projects.data ?? []).map((project) => project.name), ...(issues.data ?? []).flatMap((issue) => (issue.project ? [issue.project] : []))]);
    return [...names].sort((first, second) => first.localeCompare(second));
  }, [projects.data, issues.data]);
  const shown = useMemo(() => visibleIssues(issues.data ?? [], filters, workedOn.data), [issues.data, filters, workedOn.data]);
  const changeFilters = (next: BoardFilters) =>
    setSearch(Object.fromEntries(Object.entries(next).filter(([, value]) => value !== '')), { replace: true });
  const fullPage = (issues.data?.length ?? 0) >= limit;

  return (
    <div className="board-page">
      <header className="board-toolbar">
        <h1>Issues</h1>
        {canWrite ? (
          <button type="button" className="primary" onClick={() => setCreating(true)} data-testid="issue-create-open">
            New issue
          </button>
        ) : null}
        <BoardFiltersView filters={filters} onChange={changeFilters} projectNames={projectNames} agents={agents.data ?? []} />
      </header>
      {issues.isPending ? <p className="loading" role="status">Loading issues…</p> : null}
      {issues.isError ? <p role="alert">{describeError(issues.error)}</p> : null}
      {agents.isError ? <p role="alert">Agents: {describeError(agents.error)}</p> : null}
      {workedOn.isError ? <p role="alert">Tasks of the agent: {describeError(workedOn.error)}</p> : null}
      {issues.data ? <BoardColumns issues={shown} agents={agents.data ?? []} canWrite={canWrite} /> : null}
      {fullPage && limit < ISSUE_LIST_MAXIMUM ? (
        <button type="button" className="board-more" disabled={issues.isPlaceholderData} onClick={() => setLimit(Math.min(limit + PAGE_SIZE, ISSUE_LIST_MAXIMUM))}>
          {issues.isPlaceholderData ? 'Loading…' : 'Show older issues'}
        </button>
      ) : null}
      {fullPage && limit >= ISSUE_LIST_MAXIMUM ? <p className="hint">Showing the newest {ISSUE_LIST_MAXIMUM} issues: filter to see older ones.</p> : null}
      <IssueCreateDialog open={creating} onClose={() => setCreating(false)} agents={agents.data ?? []} projectNames={projectNames} />
    </div>
  );
}
