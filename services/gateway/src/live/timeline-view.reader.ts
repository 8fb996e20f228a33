import type { DataSource } from 'typeorm';
import type { TimelineEntry } from '@switchyard/contracts';
import { readTimelineRows } from '../tasks/timeline-rows.query';
import type { SeqRange } from './task-feed.sequencer';

const PAGE_ROWS = 1_000;

/**
 * Reads a task's rows of the `task_message` view after `afterSeq` and below `beforeSeq` (no bound
 * when undefined), page by page, in seq order.
 */
export async function* readTimelineRange(dataSource: DataSource, taskId: string, range: SeqRange): AsyncGenerator<TimelineEntry[]> {
  const before = range.beforeSeq ?? Number.POSITIVE_INFINITY;
  let cursor = range.afterSeq;
  for (;;) {
    const page = await readTimelineRows(dataSource, taskId, cursor, PAGE_ROWS);
    const inRange = page.entries.filter((entry) => entry.seq < before);
    if (inRange.length > 0) yield inRange;
    if (!page.hasMore || inRange.length < page.entries.length) return;
    cursor = page.entries[page.entries.length - 1]!.seq;
  }
}

/** The workspace a task belongs to, from the queue's view; undefined when there is no such task. */
export async function workspaceOfTask(dataSource: DataSource, taskId: string): Promise<string | undefined> {
  const rows = await dataSource.query<Array<{ workspace_id: string }>>('select workspace_id from agent_task_queue where task_id = $1', [taskId]);
  return rows[0]?.workspace_id;
}
