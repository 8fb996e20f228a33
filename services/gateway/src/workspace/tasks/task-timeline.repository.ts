import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE, readTaskUsage, readTimelinePageJson } from '@switchyard/persistence';
import type { TaskUsage } from './task.schemas';

/** Which page: after `since` (from the start when absent), or the last rows below `before`. */
export interface TimelinePageQuery {
  readonly since?: number | undefined;
  readonly before?: number | 'end' | undefined;
  readonly limit: number;
}

/**
 * Replay of a task's timeline (`task_message`, written by the transcript projector) and its token
 * usage (`task_usage`). Callers check first that the task is in the caller's workspace.
 */
@Injectable()
export class TaskTimelineRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /**
   * One page as the response body's JSON text, `{ messages, nextSince, hasMore }`: the rows' stored
   * API texts joined, none parsed or serialized again. A gap in seq is shown as it is.
   */
  async messagesJson(taskId: string, query: TimelinePageQuery): Promise<string> {
    const page =
      query.before === undefined
        ? await readTimelinePageJson(this.dataSource, { taskId, afterSeq: query.since ?? -1, limit: query.limit })
        : await readTimelinePageJson(this.dataSource, { taskId, beforeSeq: query.before === 'end' ? null : query.before, limit: query.limit });
    return `{"messages":${page.entriesJson},"nextSince":${JSON.stringify(page.lastSeq ?? emptyPageNextSince(query))},"hasMore":${page.hasMore}}`;
  }

  async usage(taskId: string): Promise<TaskUsage> {
    const usage = (await readTaskUsage(this.dataSource, [taskId])).map((record) => ({
      attempt: record.attempt,
      provider: record.provider,
      model: record.model,
      inputTokens: record.inputTokens,
      outputTokens: record.outputTokens,
      cacheReadTokens: record.cacheReadTokens,
      cacheWriteTokens: record.cacheWriteTokens,
    }));
    const totals = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
    for (const entry of usage) {
      totals.inputTokens += entry.inputTokens;
      totals.outputTokens += entry.outputTokens;
      totals.cacheReadTokens += entry.cacheReadTokens;
      totals.cacheWriteTokens += entry.cacheWriteTokens;
    }
    return { taskId, usage, totals };
  }
}

/** Where to continue when a page is empty: the `since` given, or just below the `before` bound. */
function emptyPageNextSince(query: TimelinePageQuery): number | null {
  if (query.before === undefined) return query.since ?? null;
  return query.before === 'end' ? null : query.before - 1;
}
