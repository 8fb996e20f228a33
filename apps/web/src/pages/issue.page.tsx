import { useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import { describeError } from '../api/api-error';
import { useAssignableAgents, useIssue } from '../api/issues.api';
import { useIssueTasks } from '../api/tasks.api';
import { IssueCommentsView } from '../components/issue-comments.view';
import { IssueFieldsView } from '../components/issue-fields.view';
import { useIssueLiveRefresh } from '../components/issue-live.hook';
import { IssueTasksView } from '../components/issue-tasks.view';
import { MarkdownView } from '../components/markdown.view';

/** One issue: its description, status and assignee, its tasks with their live timelines, its comments. */
export function IssuePage() {
  const { issueId = '' } = useParams();
  const issue = useIssue(issueId);
  const tasks = useIssueTasks(issueId);
  const agents = useAssignableAgents();
  const knownTaskIds = useMemo(() => new Set(tasks.data?.map((task) => task.taskId)), [tasks.data]);
  useIssueLiveRefresh(issueId, knownTaskIds);

  if (issue.isPending) {
    return (
      <p className="loading" role="status">
        Loading the issue…
      </p>
    );
  }
  if (issue.isError) {
    return (
      <div className="issue-page">
        <p>
          <Link to="/">← Board</Link>
        </p>
        <p role="alert">{describeError(issue.error)}</p>
      </div>
    );
  }
  const current = issue.data;
  return (
    <article className="issue-page" aria-labelledby="issue-title">
      <p className="issue-breadcrumb">
        <Link to="/">← Board</Link>
      </p>
      <h1 id="issue-title" data-testid="issue-title">
        {current.title}
      </h1>
      <IssueFieldsView issue={current} />
      <section className="issue-description card" aria-labelledby="issue-description-heading">
        <h2 id="issue-description-heading">Description</h2>
        <MarkdownView source={current.description} empty="No description." />
      </section>
      <IssueTasksView issueId={issueId} tasks={tasks.data} error={tasks.error} agents={agents.data ?? []} />
      <IssueCommentsView issueId={issueId} />
    </article>
  );
}
