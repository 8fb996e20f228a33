import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { chatKeys, deleteChatSession } from '../api/chat.api';
import { ConfirmDialog } from './dialog.view';

/** Deletes the chat after confirmation; its unfinished replies are cancelled by the API first. */
export function ChatDeleteButton(props: { readonly chatSessionId: string }) {
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteChatSession(props.chatSessionId),
    onSuccess: async () => {
      // Leave first: re-reading the deleted chat would only answer 404.
      void navigate('/chat');
      await queries.invalidateQueries({ queryKey: chatKeys.sessions() });
    },
  });
  return (
    <>
      <button type="button" className="danger" onClick={() => setConfirming(true)} data-testid="chat-delete">
        Delete chat
      </button>
      {confirming ? (
        <ConfirmDialog
          title="Delete this chat?"
          confirmLabel="Delete chat"
          busyLabel="Deleting…"
          busy={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate()}
          onCancel={() => {
            setConfirming(false);
            remove.reset();
          }}
        >
          <p>Its messages go with it, and replies still being worked on are cancelled.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
