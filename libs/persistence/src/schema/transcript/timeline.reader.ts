import type { JsonValue, TimelineEntry, TimelineEntryType, ToolResultStatus } from '@switchyard/contracts';
import type { SqlRunner } from '../sql-runner';

export interface StoredTimelineRow {
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
  notice_code: string | null;
  created_at: Date;
}

export function timelineEntryOfRow(row: StoredTimelineRow): TimelineEntry {
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
    noticeCode: row.notice_code,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export const TIMELINE_ROW_COLUMNS = 'id, task_id, seq, attempt, type, tool, call_id, content, input, output, output_truncated, tool_status, error_code, notice_code, created_at';

/**
 * A task's rows of the `task_message` view after a seq, in seq order, as `TimelineEntry` objects:
 * the WebSocket backfill's read (REST replay reads the stored texts, `readTimelinePageJson`).
 * Callers check the workspace first.
 */
export async function readTimelineRows(
  runner: SqlRunner,
  options: { readonly taskId: string; readonly afterSeq: number; readonly limit: number },
): Promise<{ entries: TimelineEntry[]; hasMore: boolean }> {
  const rows = await runner.query<StoredTimelineRow[]>(
    // The keyset function walks the (task_id, seq) index whatever the planner guesses of the task.
    `select ${TIMELINE_ROW_COLUMNS} from timeline_rows_after($1, $2, $3)`,
    [options.taskId, options.afterSeq, options.limit + 1],
  );
  return { entries: rows.slice(0, options.limit).map(timelineEntryOfRow), hasMore: rows.length > options.limit };
}

/** The (task, seq, row id) of every stored row of these tasks, for audits that compare them with the stream. */
export async function readTimelineRowKeys(runner: SqlRunner, taskIds: readonly string[]): Promise<Array<{ taskId: string; seq: number; id: string }>> {
  const rows = await runner.query<Array<{ id: string; task_id: string; seq: number }>>('select id, task_id, seq from task_message where task_id = any($1)', [[...taskIds]]);
  return rows.map((row) => ({ taskId: row.task_id, seq: row.seq, id: row.id }));
}
