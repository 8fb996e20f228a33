import type { SqlRunner } from '../sql-runner';

/** Token counts of one (task, attempt, provider, model), as the transcript projector sums them. */
export interface TaskUsageRecord {
  readonly taskId: string;
  readonly attempt: number;
  /** '' when the CLI did not say (part of the primary key, so never null). */
  readonly provider: string;
  readonly model: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

// bigint columns arrive as strings.
interface TaskUsageRow {
  task_id: string;
  attempt: number;
  provider: string;
  model: string;
  input_tokens: string;
  output_tokens: string;
  cache_read_tokens: string;
  cache_write_tokens: string;
}

/** The usage rows of these tasks, by task, attempt, provider and model. */
export async function readTaskUsage(runner: SqlRunner, taskIds: readonly string[]): Promise<TaskUsageRecord[]> {
  if (taskIds.length === 0) return [];
  const rows = await runner.query<TaskUsageRow[]>(
    `select task_id, attempt, provider, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens
       from task_usage where task_id = any($1::text[]) order by task_id, attempt, provider, model`,
    [[...taskIds]],
  );
  return rows.map((row) => ({
    taskId: row.task_id,
    attempt: row.attempt,
    provider: row.provider,
    model: row.model,
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    cacheReadTokens: Number(row.cache_read_tokens),
    cacheWriteTokens: Number(row.cache_write_tokens),
  }));
}
