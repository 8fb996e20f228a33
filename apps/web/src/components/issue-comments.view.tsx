import { useState, type FormEvent } from 'react';
import { describeError } from '../api/api-error';
import { useAssignableAgents, useCreateComment, useIssueComments, useMembers, type Actor, type AgentSummary, type MemberSummary } from '../api/issues.api';
import { useRoleAtLeast, useSession } from '../session/session.context';
import { AgentMentionInput } from './agent-mention.input';
import { MarkdownView } from './markdown.view';

interface AuthorNames {
  readonly agents: readonly AgentSummary[];
  readonly members: readonly MemberSummary[];
  readonly myUserId: string;
}

function authorName(author: Actor, names: AuthorNames): string {
  if (author.kind === 'agent') return names.agents.find((agent) => agent.id === author.id)?.name ?? `agent ${author.id}`;
  if (author.kind === 'user') {
    if (author.id === names.myUserId) return 'You';
    return names.members.find((member) => member.userId === author.id)?.displayName ?? 'a former member';
  }
  if (author.kind === 'api_token') return 'an API token';
  return author.kind === 'system' ? `Switchyard (${author.id})` : `${author.kind} ${author.id}`;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The issue's conversation, oldest first, and a box to add to it. */
export function IssueCommentsView(props: { readonly issueId: string }) {
  const comments = useIssueComments(props.issueId);
  const agents = useAssignableAgents();
  const members = useMembers();
  const { session } = useSession();
  const names: AuthorNames = { agents: agents.data ?? [], members: members.data ?? [], myUserId: session.user.id };
  return (
    <section className="issue-comments" aria-labelledby="issue-comments-heading">
      <h2 id="issue-comments-heading">Comments</h2>
      {comments.isPending ? <p className="loading" role="status">Loading comments…</p> : null}
      {comments.isError ? <p role="alert">{describeError(comments.error)}</p> : null}
      {comments.data && comments.data.length === 0 ? <p className="hint">No comments yet.</p> : null}
      <ol className="issue-comment-list">
        {comments.data?.map((comment) => (
          <li key={comment.id} className={`card issue-comment issue-comment-${comment.author.kind}`}>
            <p className="issue-comment-meta">
              <strong>{authorName(comment.author, names)}</strong> <time dateTime={comment.createdAt}>{timeFormat.format(new Date(comment.createdAt))}</time>
            </p>
            <MarkdownView source={comment.body} />
          </li>
        ))}
      </ol>
      <CommentForm issueId={props.issueId} agents={agents.data ?? []} />
    </section>
  );
}

function CommentForm(props: { readonly issueId: string; readonly agents: readonly AgentSummary[] }) {
  const canComment = useRoleAtLeast('member');
  const create = useCreateComment(props.issueId);
  const [body, setBody] = useState('');
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (body.trim() === '' || create.isPending) return;
    create.mutate(body, { onSuccess: () => setBody('') });
  };
  if (!canComment) return <p className="hint">Viewers read the conversation; members comment.</p>;
  return (
    <form className="issue-comment-form" onSubmit={submit} aria-label="Add a comment">
      <AgentMentionInput
        label="Comment (markdown)"
        value={body}
        onChange={setBody}
        agents={props.agents}
        readOnly={create.isPending}
        placeholder="Write a comment; @name mentions an agent"
        testId="comment-input"
        onSubmitShortcut={() => submit()}
      />
      <div className="issue-actions">
        <button type="submit" className="primary" data-testid="comment-submit" disabled={create.isPending || body.trim() === ''}>
          {create.isPending ? 'Posting…' : 'Comment'}
        </button>
      </div>
      {create.isError ? <p role="alert">{describeError(create.error)}</p> : null}
    </form>
  );
}
