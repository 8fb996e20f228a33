import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSession } from '../session/session.context';
import { LiveClient } from './live.client';
import { EMPTY_TIMELINE, withActivity, withEntry, type TimelineState } from './timeline.model';
import type { ServerFrame, TaskStatusFrame } from './timeline.types';

const LiveContext = createContext<LiveClient | undefined>(undefined);

declare global {
  interface Window {
    /** The page's live connection, for diagnosis in the browser console (and for the browser suite). */
    switchyardLive?: LiveClient;
  }
}

/**
 * One live connection per workspace for every page under it, made and closed in one effect (so
 * React's development double-run closes the first and opens a second, never leaving it closed).
 * After a reconnect every query is read again: the workspace feed replays nothing it missed.
 */
export function LiveProvider(props: { readonly children: ReactNode }) {
  const { workspace } = useSession();
  const queries = useQueryClient();
  const [client, setClient] = useState<LiveClient>();
  useEffect(() => {
    const opened = new LiveClient(workspace.workspaceId);
    const stopListening = opened.onReconnect(() => void queries.invalidateQueries());
    window.switchyardLive = opened;
    setClient(opened);
    return () => {
      stopListening();
      opened.close();
    };
  }, [workspace.workspaceId, queries]);
  if (!client) return <p className="loading" role="status">Connecting…</p>;
  return <LiveContext.Provider value={client}>{props.children}</LiveContext.Provider>;
}

export function useLiveClient(): LiveClient {
  const client = useContext(LiveContext);
  if (!client) throw new Error('useLiveClient outside LiveProvider');
  return client;
}

/** A task's timeline, live: every row and activity once, in seq order, resumed after each reconnect; and its latest status change. */
export function useTaskTimeline(taskId: string | undefined): { timeline: TimelineState; lastStatus: TaskStatusFrame | undefined; error: string | undefined } {
  const client = useLiveClient();
  const [timeline, setTimeline] = useState<TimelineState>(EMPTY_TIMELINE);
  const [lastStatus, setLastStatus] = useState<TaskStatusFrame>();
  const [error, setError] = useState<string>();
  const lastSeq = useRef(-1);
  useEffect(() => {
    if (!taskId) return undefined;
    setTimeline(EMPTY_TIMELINE);
    lastSeq.current = -1;
    const listener = (frame: ServerFrame) => {
      if (frame.type === 'timeline') {
        lastSeq.current = Math.max(lastSeq.current, frame.entry.seq);
        setTimeline((state) => withEntry(state, frame.entry));
      } else if (frame.type === 'activity') {
        lastSeq.current = Math.max(lastSeq.current, frame.seq);
        setTimeline((state) => withActivity(state, frame.seq, frame.message));
      } else if (frame.type === 'task') {
        setLastStatus(frame);
      } else if (frame.type === 'error') {
        setError(frame.message);
      }
    };
    return client.subscribeTask(taskId, listener, () => lastSeq.current);
  }, [client, taskId]);
  return { timeline, lastStatus, error };
}
