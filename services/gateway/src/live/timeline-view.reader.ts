import type { DataSource } from 'typeorm';
import type { JsonValue, TimelineEntry, TimelineEntryType, ToolResultStatus } from '@switchyard/contracts';

interface TaskMessageRow {
  readonly id: string;
  readonly task_id: string;
  readonly seq: number;
  readonly attempt: number;
  readonly type: TimelineEntryType;
  readonly tool: string | null;
  readonly call_id: string | null;
  readonly content: string | null;
  readonly input: JsonValue | null;
  readonly output: string | null;
  readonly output_truncated: boolean;
  readonly tool_status: ToolResultStatus | null;
  readonly error_code: string | null;
  readonly created_at: Date | string;
}

const PAGE_ROWS = 1_000;

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
    createdAt: (row.created_at instanceof Date ? row.created_at : new Date(row.created_at)).toISOString(),
  };
}

/** Reads a task's rows of the `task_message` view after a seq, page by page, in seq order. */
export async function* readTimelineAfter(dataSource: DataSource, taskId: string, afterSeq: number): AsyncGenerator<TimelineEntry[]> {
  let cursor = afterSeq;
  for (;;) {
    const rows = await dataSource.query<TaskMessageRow[]>(
      `select id, task_id, seq, attempt, type, tool, call_id, content, input, output, output_truncated, tool_status, error_code, created_at
         from task_message where task_id = $1 and seq > $2 order by seq limit $3`,
      [taskId, cursor, PAGE_ROWS],
    );
    if (rows.length === 0) return;
    yield rows.map(entryOf);
    cursor = rows[rows.length - 1]!.seq;
    if (rows.length < PAGE_ROWS) return;
  }
}

/** The workspace a task belongs to, from the queue's view; undefined when there is no such task. */
export async function workspaceOfTask(dataSource: DataSource, taskId: string): Promise<string | undefined> {
  const rows = await dataSource.query<Array<{ workspace_id: string }>>('select workspace_id from agent_task_queue where task_id = $1', [taskId]);
  return rows[0]?.workspace_id;
}
