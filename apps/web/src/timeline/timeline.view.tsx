import { Fragment, useEffect, useLayoutEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { isFinishedTaskStatus, taskKeys, useTask } from '../api/tasks.api';
import { describeError } from '../api/api-error';
import { TimelineItemView } from '../components/timeline-item.view';
import { TimelineTaskHeader } from '../components/timeline-task-header.view';
import { TimelineUsageView } from '../components/timeline-usage.view';
import { useTaskTimeline } from './live.context';
import type { TimelineItem } from './timeline.model';

/** Status items carry no attempt: they belong to the attempt around them. */
function attemptOf(item: TimelineItem): number | undefined {
  return item.kind === 'status' ? undefined : item.attempt;
}

/** Keeps the newest item in sight while the reader is at the bottom; leaves them be when they scrolled up. */
function useFollowBottom(count: number) {
  const list = useRef<HTMLOListElement>(null);
  const atBottom = useRef(true);
  useLayoutEffect(() => {
    const element = list.current;
    if (element && atBottom.current) element.scrollTop = element.scrollHeight;
  }, [count]);
  const onScroll = () => {
    const element = list.current;
    if (element) atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 24;
  };
  return { list, onScroll };
}

function TimelineItems(props: { readonly items: readonly TimelineItem[] }) {
  const { list, onScroll } = useFollowBottom(props.items.length);
  let attempt: number | undefined;
  return (
    <ol className="timeline-items" ref={list} onScroll={onScroll} aria-label="Timeline" tabIndex={0}>
      {props.items.map((item) => {
        const itemAttempt = attemptOf(item);
        // A retry starts over in a fresh session: mark where each attempt after the first begins.
        const divider = itemAttempt !== undefined && attempt !== undefined && itemAttempt !== attempt;
        if (itemAttempt !== undefined) attempt = itemAttempt;
        return (
          <Fragment key={item.key}>
            {divider ? (
              <li className="timeline-attempt">
                Attempt {itemAttempt}
              </li>
            ) : null}
            <TimelineItemView item={item} />
          </Fragment>
        );
      })}
    </ol>
  );
}

/**
 * One task, live: its status and reason, connection, repositories, Cancel and Rerun, then its
 * timeline (text and thinking merged, tool calls with their results, errors, daemon notices,
 * status changes) and token use per model. Everything comes over the live socket from seq 0, so
 * a page opened late or reconnected shows the whole run once. `issueId`: the issue the task is
 * one of, if any (a chat task has none), whose task list Cancel and Rerun refresh.
 */
export function TimelineView(props: { readonly taskId: string; readonly issueId?: string }) {
  const { taskId } = props;
  const queries = useQueryClient();
  const task = useTask(taskId);
  const { timeline, lastStatus, error } = useTaskTimeline(taskId);

  // A status change may bring a reason, a failure, repositories: read the task again, and the
  // issue's task list, whose summaries show the status too.
  const { issueId } = props;
  useEffect(() => {
    if (!lastStatus) return;
    void queries.invalidateQueries({ queryKey: taskKeys.detail(taskId) });
    if (issueId) void queries.invalidateQueries({ queryKey: taskKeys.ofIssue(issueId) });
  }, [lastStatus, queries, taskId, issueId]);

  const status = lastStatus?.status ?? task.data?.status;
  const finished = status !== undefined && isFinishedTaskStatus(status);
  return (
    <div className="timeline" data-testid={`timeline-${taskId}`} data-last-seq={timeline.lastSeq}>
      <TimelineTaskHeader taskId={taskId} issueId={props.issueId} task={task.data} live={lastStatus} />
      {task.isError ? <p role="alert">{describeError(task.error)}</p> : null}
      {error ? <p role="alert">Live timeline: {error}</p> : null}
      {timeline.items.length === 0 ? (
        <p className="hint" role="status">
          {finished ? 'This task left no messages.' : 'No messages yet.'}
        </p>
      ) : (
        <TimelineItems items={timeline.items} />
      )}
      <TimelineUsageView taskId={taskId} live={timeline.usage} finished={finished} />
    </div>
  );
}
