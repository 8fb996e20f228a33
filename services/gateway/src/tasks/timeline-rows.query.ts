import type { DataSource } from 'typeorm';
import type { JsonValue, TimelineEntry, TimelineEntryType, ToolResultStatus } from '@switchyard/contracts';
import { isoOf } from '../http/api-schemas';

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

/**
 * A task's rows of the `task_message` view after a seq, in seq order, as `TimelineEntry`: the one
 * read behind REST replay and the WebSocket backfill alike. Callers check the workspace first.
 */
export async function readTimelineRows(dataSource: DataSource, taskId: string, afterSeq: number, limit: number): Promise<{ entries: TimelineEntry[]; hasMore: boolean }> {
  const rows = await dataSource.query<TaskMessageRow[]>(
    `select id, task_id, seq, attempt, type, tool, call_id, content, input, output, output_truncated, tool_status, error_code, created_at
       from task_message where task_id = $1 and seq > $2 order by seq limit $3`,
    [taskId, afterSeq, limit + 1],
  );
  return { entries: rows.slice(0, limit).map(entryOf), hasMore: rows.length > limit };
}
