import { isNewSessionCommand, type ChatMessage } from '../api/chat.api';
import { MarkdownView } from './markdown.view';

/** One message: the person's or the agent's; a `/new` reads as the divider it is. */
export function ChatMessageView(props: { readonly message: ChatMessage; readonly agentName: string }) {
  const { message } = props;
  const time = new Date(message.createdAt);
  if (message.role === 'user' && isNewSessionCommand(message.body)) {
    return (
      <li className="chat-message chat-message-divider" data-testid="chat-message" data-author-kind={message.role}>
        <span>/new: the next message starts a fresh session</span> <time dateTime={message.createdAt}>{time.toLocaleString()}</time>
      </li>
    );
  }
  return (
    <li className={`chat-message chat-message-${message.role}`} data-testid="chat-message" data-author-kind={message.role}>
      <div className="chat-message-meta">
        <strong>{message.role === 'agent' ? props.agentName : 'You'}</strong> <time dateTime={message.createdAt}>{time.toLocaleString()}</time>
      </div>
      {/* Agents answer in Markdown (sanitized); a person's message reads exactly as typed. */}
      {message.role === 'agent' ? <MarkdownView source={message.body} className="chat-message-body" empty="(empty reply)" /> : <div className="chat-message-body">{message.body}</div>}
      {message.attachments.length > 0 ? (
        <ul className="chat-attachments" aria-label="Attachments">
          {message.attachments.map((attachment, index) => (
            <li key={`${index}-${attachment.name}`}>
              {attachment.url ? (
                <a href={attachment.url} target="_blank" rel="noreferrer noopener">
                  {attachment.name}
                </a>
              ) : (
                attachment.name
              )}
              {attachment.mediaType ? <span className="hint"> ({attachment.mediaType})</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}
