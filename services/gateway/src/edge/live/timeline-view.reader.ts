import type { DataSource } from 'typeorm';
import type { TimelineEntry } from '@switchyard/contracts';
import { readTimelineRows } from '@switchyard/persistence';
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
    const page = await readTimelineRows(dataSource, { taskId, afterSeq: cursor, limit: PAGE_ROWS });
    const inRange = page.entries.filter((entry) => entry.seq < before);
    if (inRange.length > 0) yield inRange;
    if (!page.hasMore || inRange.length < page.entries.length) return;
    cursor = page.entries[page.entries.length - 1]!.seq;
  }
}
