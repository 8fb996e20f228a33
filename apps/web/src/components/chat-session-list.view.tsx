import { useState, type FormEvent } from 'react';
import { NavLink, useNavigate } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { describeError } from '../api/api-error';
import type { Agent } from '../api/agents.api';
import { CHAT_SESSION_LIST_LIMIT, chatKeys, createChatSession, listChatSessions } from '../api/chat.api';
import { Pager, useClientPages } from './pager.view';

const PAGE_SIZE = 20;

/** The workspace's chat sessions, newest first, and a form to start one with an agent. */
export function ChatSessionList(props: { readonly agents: readonly Agent[]; readonly canWrite: boolean }) {
  const sessions = useQuery({ queryKey: chatKeys.sessions(), queryFn: listChatSessions });
  const { pageItems, pager } = useClientPages(sessions.data ?? [], PAGE_SIZE, 'Chat sessions pages');
  const agentName = (agentId: string) => props.agents.find((agent) => agent.id === agentId)?.name ?? agentId;
  return (
    <aside className="chat-sidebar card" aria-label="Chat sessions">
      {props.canWrite ? <NewChatForm agents={props.agents.filter((agent) => agent.archivedAt === null)} /> : null}
      <h2>Chats</h2>
      {sessions.isPending ? <p role="status">Loading chats…</p> : null}
      {sessions.isError ? <p role="alert">{describeError(sessions.error)}</p> : null}
      {sessions.data?.length === 0 ? <p className="hint">No chats yet.</p> : null}
      <ul className="chat-session-list">
        {pageItems.map((session) => (
          <li key={session.id}>
            <NavLink to={`/chat/${encodeURIComponent(session.id)}`}>
              <span className="chat-session-title">{session.title || 'Untitled chat'}</span>
              <span className="hint">
                {agentName(session.agentId)} · {new Date(session.createdAt).toLocaleString()}
              </span>
            </NavLink>
          </li>
        ))}
      </ul>
      <Pager {...pager} />
      {sessions.data?.length === CHAT_SESSION_LIST_LIMIT ? <p className="hint">The newest {CHAT_SESSION_LIST_LIMIT} chats are listed.</p> : null}
    </aside>
  );
}

function NewChatForm(props: { readonly agents: readonly Agent[] }) {
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [agentId, setAgentId] = useState('');
  const [title, setTitle] = useState('');
  const start = useMutation({
    mutationFn: () => createChatSession({ agentId, ...(title.trim() ? { title: title.trim() } : {}) }),
    onSuccess: async (session) => {
      setTitle('');
      await queries.invalidateQueries({ queryKey: chatKeys.sessions() });
      void navigate(`/chat/${encodeURIComponent(session.id)}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (agentId !== '') start.mutate();
  };
  return (
    <form className="chat-new" onSubmit={submit} aria-label="Start a chat">
      <h2>New chat</h2>
      <label>
        Agent
        <select value={agentId} onChange={(event) => setAgentId(event.target.value)} required data-testid="chat-new-agent">
          <option value="">Choose an agent…</option>
          {props.agents.map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agent.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Title (optional)
        <input value={title} maxLength={200} onChange={(event) => setTitle(event.target.value)} />
      </label>
      <button type="submit" className="primary" disabled={start.isPending || agentId === ''} data-testid="chat-new-start">
        {start.isPending ? 'Starting…' : 'Start chat'}
      </button>
      {props.agents.length === 0 ? <p className="hint">No active agent yet: create one on the Agents page.</p> : null}
      {start.isError ? <p role="alert">{describeError(start.error)}</p> : null}
    </form>
  );
}
