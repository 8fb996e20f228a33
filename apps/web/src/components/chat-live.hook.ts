import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { chatKeys } from '../api/chat.api';
import { useLiveClient } from '../timeline/live.context';
import type { TaskStatusFrame } from '../timeline/timeline.types';

const ENDED_WITHOUT_REPLY = new Set(['failed', 'cancelled', 'expired']);

/** Keeps the list of chats current from the workspace feed: a session made or deleted elsewhere re-lists them. */
export function useChatSessionsLive(): void {
  const client = useLiveClient();
  const queries = useQueryClient();
  useEffect(
    () =>
      client.subscribeWorkspace((frame) => {
        if (frame.type === 'workspace' && (frame.kind === 'chat_session.created' || frame.kind === 'chat_session.deleted')) {
          void queries.invalidateQueries({ queryKey: chatKeys.sessions() });
        }
      }),
    [client, queries],
  );
}

/**
 * Keeps the open chat current from the workspace feed: a message of the session (the user's, or
 * the agent's reply) re-reads its messages and unfinished tasks; a watched task that ends without
 * a reply (failed, cancelled: the gateway writes none) is answered so the page can say so.
 * Notices are ids only, so the rows are re-read.
 */
export function useChatLiveUpdates(chatSessionId: string | undefined, watchedTaskIds: readonly string[]): { readonly endedWithoutReply: readonly TaskStatusFrame[] } {
  const client = useLiveClient();
  const queries = useQueryClient();
  const [ended, setEnded] = useState<{ readonly sessionId: string | undefined; readonly frames: readonly TaskStatusFrame[] }>({ sessionId: chatSessionId, frames: [] });
  // The listener lives as long as the page; it reads the latest session and tasks through refs.
  const sessionReference = useRef(chatSessionId);
  const watchedReference = useRef(new Set(watchedTaskIds));
  useEffect(() => {
    sessionReference.current = chatSessionId;
    watchedReference.current = new Set(watchedTaskIds);
  }, [chatSessionId, watchedTaskIds]);

  useEffect(
    () =>
      client.subscribeWorkspace((frame) => {
        const openSession = sessionReference.current;
        if (frame.type === 'workspace') {
          if (frame.kind === 'chat_message.created' && openSession !== undefined && frame.chatSessionId === openSession) {
            void queries.invalidateQueries({ queryKey: chatKeys.messages(openSession) });
            void queries.invalidateQueries({ queryKey: chatKeys.unfinishedTasks(openSession) });
          }
          return;
        }
        if (frame.type !== 'task' || openSession === undefined || !watchedReference.current.has(frame.taskId)) return;
        void queries.invalidateQueries({ queryKey: chatKeys.unfinishedTasks(openSession) });
        // The reply is written right after completion: look for it at once rather than wait for its notice.
        if (frame.status === 'completed') void queries.invalidateQueries({ queryKey: chatKeys.messages(openSession) });
        if (frame.status !== null && ENDED_WITHOUT_REPLY.has(frame.status)) {
          setEnded((state) => ({ sessionId: openSession, frames: [...(state.sessionId === openSession ? state.frames : []).filter((known) => known.taskId !== frame.taskId), frame] }));
        }
      }),
    [client, queries],
  );
  return { endedWithoutReply: ended.sessionId === chatSessionId ? ended.frames : [] };
}
