import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { issueKeys } from '../api/issues.api';
import { taskKeys } from '../api/tasks.api';
import { useLiveClient } from '../timeline/live.context';
import type { TaskStatusFrame, WorkspaceNoticeFrame } from '../timeline/timeline.types';

export type WorkspaceFeedFrame = TaskStatusFrame | WorkspaceNoticeFrame;

/** Every status change and notice of the workspace feed while the component is mounted. */
export function useWorkspaceFeed(listener: (frame: WorkspaceFeedFrame) => void): void {
  const client = useLiveClient();
  // The latest listener, without subscribing again on every render.
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    const unsubscribe = client.subscribeWorkspace((frame) => {
      if (frame.type === 'task' || frame.type === 'workspace') latest.current(frame);
    });
    return () => {
      unsubscribe();
    };
  }, [client]);
}

const COALESCE_MS = 300;

/**
 * Invalidates queries at most once per short window: a burst of frames (a run moving through
 * queued, dispatched, running) reads the list once, not once per frame.
 */
function useCoalescedInvalidation(): (key: QueryKey) => void {
  const queries = useQueryClient();
  const pending = useRef(new Map<string, QueryKey>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (key) => {
    pending.current.set(JSON.stringify(key), key);
    if (timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      const keys = [...pending.current.values()];
      pending.current.clear();
      for (const queryKey of keys) void queries.invalidateQueries({ queryKey });
    }, COALESCE_MS);
  };
}

/** The board reads its issues again on any issue notice, and when a task changes status (a run moves its issue). */
export function useBoardLiveRefresh(): void {
  const invalidate = useCoalescedInvalidation();
  useWorkspaceFeed((frame) => {
    if (frame.type === 'workspace' && frame.kind.startsWith('issue.')) invalidate(issueKeys.lists());
    if (frame.type === 'task' && frame.status !== null) {
      invalidate(issueKeys.lists());
      invalidate([...taskKeys.all, 'of-agent']);
    }
  });
}

/** The issue page follows its issue, its comments and its tasks. */
export function useIssueLiveRefresh(issueId: string, knownTaskIds: ReadonlySet<string>): void {
  const invalidate = useCoalescedInvalidation();
  useWorkspaceFeed((frame) => {
    if (frame.type === 'workspace') {
      if (frame.kind.startsWith('issue.') && frame.id === issueId) {
        invalidate(issueKeys.detail(issueId));
        invalidate(taskKeys.ofIssue(issueId));
      }
      if (frame.kind === 'comment.created' && frame.issueId === issueId) {
        invalidate(issueKeys.comments(issueId));
        // A mention starts a task.
        invalidate(taskKeys.ofIssue(issueId));
      }
      return;
    }
    if (knownTaskIds.has(frame.taskId)) {
      invalidate(taskKeys.ofIssue(issueId));
      invalidate(taskKeys.detail(frame.taskId));
    } else if (frame.event === 'task.enqueued') {
      // The frame names no issue: a new task may be this issue's (an assignment, a mention, a rerun).
      invalidate(taskKeys.ofIssue(issueId));
    }
  });
}
