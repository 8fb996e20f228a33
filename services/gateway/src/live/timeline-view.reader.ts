import type { DataSource } from 'typeorm';
import type { TimelineEntry } from '@switchyard/contracts';
import { readTimelineRows } from '../tasks/timeline-rows.query';

const PAGE_ROWS = 1_000;

/** Reads a task's rows of the `task_message` view after a seq, page by page, in seq order. */
export async function* readTimelineAfter(dataSource: DataSource, taskId: string, afterSeq: number): AsyncGenerator<TimelineEntry[]> {
  let cursor = afterSeq;
  for (;;) {
    const page = await readTimelineRows(dataSource, taskId, cursor, PAGE_ROWS);
    if (page.entries.length > 0) yield page.entries;
    if (!page.hasMore) return;
    cursor = page.entries[page.entries.length - 1]!.seq;
  }
}

/** The workspace a task belongs to, from the queue's view; undefined when there is no such task. */
export async function workspaceOfTask(dataSource: DataSource, taskId: string): Promise<string | undefined> {
  const rows = await dataSource.query<Array<{ workspace_id: string }>>('select workspace_id from agent_task_queue where task_id = $1', [taskId]);
  return rows[0]?.workspace_id;
}
