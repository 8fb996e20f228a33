import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { describeError } from '../api/api-error';
import { chatKeys, findChatSession, listChatMessages, listUnfinishedChatTasks } from '../api/chat.api';
import { ChatComposer } from './chat-composer.view';
import { ChatDeleteButton } from './chat-delete.view';
import { useChatLiveUpdates } from './chat-live.hook';
import { ChatMessageView } from './chat-message.view';
import { ChatReplyProgress } from './chat-reply-progress.view';

/** Messages shown at first; older ones come on request, so a long chat stays quick to render. */
const VISIBLE_MESSAGES = 100;
/** Notices are best effort and not replayed after a reconnect: while a reply is due, the page also looks now and then. */
const PENDING_REFRESH_MS = 10_000;

/** One chat: its messages, the replies on their way (live), and the message box. */
export function ChatConversation(props: { readonly chatSessionId: string; readonly agentName: (agentId: string) => string; readonly canWrite: boolean }) {
  const { chatSessionId } = props;
  const queries = useQueryClient();
  const session = useQuery({ queryKey: chatKeys.session(chatSessionId), queryFn: () => findChatSession(chatSessionId) });
  const unfinished = useQuery({
    queryKey: chatKeys.unfinishedTasks(chatSessionId),
    queryFn: () => (session.data ? listUnfinishedChatTasks(session.data) : Promise.resolve([])),
    enabled: session.data !== undefined,
    refetchInterval: (query) => ((query.state.data?.length ?? 0) > 0 ? PENDING_REFRESH_MS : false),
  });
  const pendingTaskIds = useMemo(() => (unfinished.data ?? []).map((task) => task.taskId), [unfinished.data]);
  const messages = useQuery({
    queryKey: chatKeys.messages(chatSessionId),
    queryFn: () => listChatMessages(chatSessionId),
    refetchInterval: pendingTaskIds.length > 0 ? PENDING_REFRESH_MS : false,
  });
  const { endedWithoutReply } = useChatLiveUpdates(chatSessionId, pendingTaskIds);
  const [showAll, setShowAll] = useState(false);
  const onSent = async () => {
    await Promise.all([
      queries.invalidateQueries({ queryKey: chatKeys.messages(chatSessionId) }),
      queries.invalidateQueries({ queryKey: chatKeys.unfinishedTasks(chatSessionId) }),
      // A `/new` sets the session's flag; the next message clears it.
      queries.invalidateQueries({ queryKey: chatKeys.session(chatSessionId) }),
    ]);
  };

  const all = messages.data ?? [];
  const visible = showAll ? all : all.slice(-VISIBLE_MESSAGES);
  const scroller = useMessageScroller(all.length + pendingTaskIds.length);
  if (session.isPending) return <section className="chat-conversation card"><p role="status">Loading the chat…</p></section>;
  if (session.isError) return <section className="chat-conversation card"><p role="alert">{describeError(session.error)}</p></section>;
  const agentName = props.agentName(session.data.agentId);
  return (
    <section className="chat-conversation card" aria-labelledby="chat-title">
      <header className="chat-conversation-header">
        <div>
          <h2 id="chat-title">{session.data.title || 'Untitled chat'}</h2>
          <p className="hint">with {agentName}</p>
        </div>
        {props.canWrite ? <ChatDeleteButton chatSessionId={chatSessionId} /> : null}
      </header>
      {messages.isPending ? <p role="status">Loading messages…</p> : null}
      {messages.isError ? <p role="alert">{describeError(messages.error)}</p> : null}
      {unfinished.isError ? <p role="alert">{describeError(unfinished.error)}</p> : null}
      <div className="chat-messages" ref={scroller} tabIndex={0} role="region" aria-label="Messages">
        {all.length > visible.length ? (
          <button type="button" onClick={() => setShowAll(true)}>
            Show {all.length - visible.length} earlier messages
          </button>
        ) : null}
        {messages.data?.length === 0 ? <p className="hint">No messages yet: say hello.</p> : null}
        <ol className="chat-message-list">
          {visible.map((message) => (
            <ChatMessageView key={message.id} message={message} agentName={agentName} />
          ))}
          {(unfinished.data ?? []).map((task) => (
            <ChatReplyProgress key={task.taskId} taskId={task.taskId} agentName={agentName} />
          ))}
        </ol>
        {endedWithoutReply.map((frame) => (
          <p key={frame.taskId} className="chat-ended" role="status">
            The reply's run ended {frame.status}
            {frame.reason ? ` (${frame.reason})` : ''}: no reply was written. Task {frame.taskId}.
          </p>
        ))}
      </div>
      {session.data.forceFreshSession ? <p className="hint" role="status">The next message starts a fresh session.</p> : null}
      {props.canWrite ? <ChatComposer chatSessionId={chatSessionId} onSent={onSent} onFailed={() => void queries.invalidateQueries({ queryKey: chatKeys.messages(chatSessionId) })} /> : <p className="hint">Viewers read chats; members write.</p>}
    </section>
  );
}

/** Keeps the newest message in view as messages arrive, unless the reader scrolled up to read. */
function useMessageScroller(count: number) {
  const reference = useRef<HTMLDivElement>(null);
  const stuckToBottom = useRef(true);
  useEffect(() => {
    const element = reference.current;
    if (!element) return undefined;
    const onScroll = () => {
      stuckToBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
    };
    element.addEventListener('scroll', onScroll);
    return () => element.removeEventListener('scroll', onScroll);
  });
  useEffect(() => {
    const element = reference.current;
    if (element && stuckToBottom.current) element.scrollTop = element.scrollHeight;
  }, [count]);
  return reference;
}
