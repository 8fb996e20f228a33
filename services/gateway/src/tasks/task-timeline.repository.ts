import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { TimelineEntry } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { TaskUsage } from './task.schemas';
import { readTimelineRows } from './timeline-rows.query';

interface TaskUsageRow {
  attempt: number;
  provider: string;
  model: string;
  // bigint columns arrive as strings.
  input_tokens: string;
  output_tokens: string;
  cache_read_tokens: string;
  cache_write_tokens: string;
}

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
    const page = await readTimelineRows(this.dataSource, taskId, options.since ?? -1, options.limit);
    return { messages: page.entries, nextSince: page.entries.at(-1)?.seq ?? options.since ?? null, hasMore: page.hasMore };
  }

  async usage(taskId: string): Promise<TaskUsage> {
    const rows = await this.dataSource.query<TaskUsageRow[]>(
      `select attempt, provider, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens
         from task_usage where task_id = $1 order by attempt, provider, model`,
      [taskId],
    );
    const usage = rows.map((row) => ({
      attempt: row.attempt,
      provider: row.provider,
      model: row.model,
      inputTokens: Number(row.input_tokens),
      outputTokens: Number(row.output_tokens),
      cacheReadTokens: Number(row.cache_read_tokens),
      cacheWriteTokens: Number(row.cache_write_tokens),
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
