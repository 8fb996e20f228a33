import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { JsonValue, TimelineEntry, TimelineEntryType, ToolResultStatus } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { isoOf } from '../http/api-schemas';
import type { TaskUsage } from './task.schemas';

interface TaskMessageRow {
  id: string;
  task_id: string;
  seq: number;
  attempt: number;
  type: TimelineEntryType;
  tool: string | null;
  call_id: string | null;
  content: string | null;
  input: JsonValue | null;
  output: string | null;
  output_truncated: boolean;
  tool_status: ToolResultStatus | null;
  error_code: string | null;
  created_at: Date;
}

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

function entryOf(row: TaskMessageRow): TimelineEntry {
  return {
    id: row.id,
    taskId: row.task_id,
    seq: row.seq,
    attempt: row.attempt,
    type: row.type,
    tool: row.tool,
    callId: row.call_id,
    content: row.content,
    input: row.input,
    output: row.output,
    outputTruncated: row.output_truncated,
    toolStatus: row.tool_status,
    errorCode: row.error_code,
    createdAt: isoOf(row.created_at),
  };
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
    const rows = await this.dataSource.query<TaskMessageRow[]>(
      `select id, task_id, seq, attempt, type, tool, call_id, content, input, output, output_truncated, tool_status, error_code, created_at
         from task_message where task_id = $1 and seq > $2 order by seq limit $3`,
      [taskId, options.since ?? -1, options.limit + 1],
    );
    const messages = rows.slice(0, options.limit).map(entryOf);
    return { messages, nextSince: messages.at(-1)?.seq ?? options.since ?? null, hasMore: rows.length > options.limit };
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
