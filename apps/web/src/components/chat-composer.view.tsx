import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { describeError } from '../api/api-error';
import { NEW_SESSION_COMMAND, isNewSessionCommand, postChatMessage, type ChatMessageChange } from '../api/chat.api';

/** The message box: Enter sends, Shift+Enter breaks the line; `/new` alone starts a fresh session for the next message. */
export function ChatComposer(props: { readonly chatSessionId: string; readonly onSent: (change: ChatMessageChange) => Promise<void>; readonly onFailed: () => void }) {
  const [body, setBody] = useState('');
  const hintId = useId();
  const send = useMutation({
    mutationFn: (text: string) => postChatMessage({ chatSessionId: props.chatSessionId, body: text }),
    onSuccess: async (change) => {
      setBody('');
      await props.onSent(change);
    },
    // A refusal from the queue still saved the message (`details.saved`): the list shows it; the text stays to try again.
    onError: props.onFailed,
  });
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (body.trim() === '' || send.isPending) return;
    send.mutate(body);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter while an input method composes a word belongs to the input method.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };
  return (
    <form className="chat-composer" onSubmit={submit} aria-label="Send a message">
      <label>
        Message
        <textarea
          value={body}
          rows={3}
          maxLength={100_000}
          onChange={(event) => setBody(event.target.value)}
          onKeyDown={onKeyDown}
          aria-describedby={hintId}
          data-testid="chat-input"
        />
      </label>
      <p id={hintId} className="hint">
        Enter sends, Shift+Enter starts a new line. <code>{NEW_SESSION_COMMAND}</code> alone makes the agent start its next answer in a fresh session.
      </p>
      <div className="chat-composer-actions">
        <button type="submit" className="primary" disabled={send.isPending || body.trim() === ''} data-testid="chat-send">
          {send.isPending ? 'Sending…' : isNewSessionCommand(body) ? 'Start fresh' : 'Send'}
        </button>
      </div>
      {send.isError ? <p role="alert">{describeError(send.error)}</p> : null}
    </form>
  );
}
