import { TimelineView } from '../timeline/timeline.view';

/**
 * A reply on its way: the task's live timeline as it streams (text, tool calls, status, Cancel),
 * until the reply message arrives and this leaves. The whole answer stays in the task's timeline.
 */
export function ChatReplyProgress(props: { readonly taskId: string; readonly agentName: string }) {
  return (
    <li className="chat-message chat-message-agent chat-reply-progress" aria-busy="true" data-testid="chat-reply-progress" data-task-id={props.taskId}>
      <div className="chat-message-meta" role="status">
        <strong>{props.agentName}</strong> is answering…
      </div>
      {/* A chat task belongs to no issue: TimelineView's issue refreshes then touch nothing. */}
      <TimelineView taskId={props.taskId} issueId="" />
    </li>
  );
}
