import { useParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { describeError } from '../api/api-error';
import { agentKeys, listAgents } from '../api/agents.api';
import { useRoleAtLeast } from '../session/session.context';
import { ChatConversation } from '../components/chat-conversation.view';
import { useChatSessionsLive } from '../components/chat-live.hook';
import { ChatSessionList } from '../components/chat-session-list.view';

/** Chat with an agent: the sessions beside the open one (`/chat/:chatSessionId`). */
export function ChatPage() {
  const { chatSessionId } = useParams();
  const canWrite = useRoleAtLeast('member');
  // Archived agents too: old sessions still name them.
  const agents = useQuery({ queryKey: agentKeys.list(true), queryFn: () => listAgents({ includeArchived: true }) });
  useChatSessionsLive();
  const agentName = (agentId: string) => agents.data?.find((agent) => agent.id === agentId)?.name ?? 'the agent';
  return (
    <div className="chat-page">
      <h1 className="visually-hidden">Chat</h1>
      <ChatSessionList agents={agents.data ?? []} canWrite={canWrite} />
      <div className="chat-main">
        {agents.isError ? <p role="alert">{describeError(agents.error)}</p> : null}
        {chatSessionId ? (
          <ChatConversation key={chatSessionId} chatSessionId={chatSessionId} agentName={agentName} canWrite={canWrite} />
        ) : (
          <section className="card chat-empty">
            <h2>No chat open</h2>
            <p>Choose a chat, or start a new one with an agent.</p>
          </section>
        )}
      </div>
    </div>
  );
}
