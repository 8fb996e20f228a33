import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { TimelineEntry } from '@switchyard/contracts';
import { DATA_SOURCE, readTaskUsage, readTimelineRows } from '@switchyard/persistence';
import type { TaskUsage } from './task.schemas';

export interface TimelinePage {
  messages: TimelineEntry[];
  nextSince: number | null;
  hasMore: boolean;
}

/**
 * Replay of a task's timeline (`task_message`, written by the transcript projector) and its token
 * usage (`task_usage`). Callers check first that the task is in the caller's workspace.
 */
@Injectable()
export class TaskTimelineRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** Rows with seq > `since` (all when absent), in seq order; a gap in seq is shown as it is. */
  async messages(taskId: string, options: { readonly since: number | undefined; readonly limit: number }): Promise<TimelinePage> {
    const page = await readTimelineRows(this.dataSource, { taskId, afterSeq: options.since ?? -1, limit: options.limit });
    return { messages: page.entries, nextSince: page.entries.at(-1)?.seq ?? options.since ?? null, hasMore: page.hasMore };
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
