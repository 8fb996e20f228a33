import type { DataSource, EntityManager } from 'typeorm';
import { saveConsumerCheckpoint } from '@switchyard/persistence';
import type { TimelineBatch } from './timeline-row.mapper';

export interface BatchWriteResult {
  /** Rows actually inserted; the rest of the batch's rows were already there. */
  readonly insertedMessages: number;
  readonly upsertedUsage: number;
}

// The stored API text of a result stored without a tool name says `"tool":null` right after its
// type; when the name is learned it goes there, so the text ends as the mapper would have written it
// had the call been in the same batch (a rebuild cuts batches differently and writes the same bytes).
// Only the top-level keys can read so: inside a JSON string every quote is escaped.
const UNNAMED_RESULT = `'"type":"tool_result","tool":null,'`;
const namedResult = (text: string, tool: string): string => `replace(${text}, ${UNNAMED_RESULT}, '"type":"tool_result","tool":' || to_json(${tool}::text)::text || ',')`;

// One statement shape whatever the batch size: arrays unnested into rows. A tool result without a
// tool name takes it from its call's row when that was stored by an earlier batch.
export const INSERT_MESSAGES = `
  insert into task_message (id, task_id, seq, attempt, type, tool, call_id, content, input, output, output_truncated, tool_status, error_code, notice_code, created_at, entry_json)
  select r.id, r.task_id, r.seq, r.attempt, r.type, named.tool, r.call_id, r.content, r.input::jsonb, r.output, r.output_truncated, r.tool_status,
         r.error_code, r.notice_code, r.created_at,
         case when r.tool is null and named.tool is not null then ${namedResult('r.entry_json', 'named.tool')} else r.entry_json end
  from unnest($1::uuid[], $2::text[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
              $10::text[], $11::bool[], $12::text[], $13::text[], $14::text[], $15::timestamptz[], $16::text[])
    as r(id, task_id, seq, attempt, type, tool, call_id, content, input, output, output_truncated, tool_status, error_code, notice_code, created_at, entry_json)
  cross join lateral (
    select case when r.type = 'tool_result' and r.tool is null
                then (select call.tool from task_message call
                      where call.task_id = r.task_id and call.call_id = r.call_id and call.type = 'tool_use'
                      order by call.seq limit 1)
                else r.tool end as tool
  ) named
  on conflict (task_id, seq) do nothing`;

// The other order: results stored before their call (out-of-order arrival) get the name now.
export const COMPLETE_TOOL_RESULTS = `
  update task_message result set tool = call.tool, entry_json = ${namedResult('result.entry_json', 'call.tool')}
  from unnest($1::text[], $2::text[], $3::text[]) as call(task_id, call_id, tool)
  where result.task_id = call.task_id and result.call_id = call.call_id
    and result.type = 'tool_result' and result.tool is null`;

// Latest reported seq wins, whatever order the reports arrive in.
const UPSERT_USAGE = `
  insert into task_usage (task_id, attempt, provider, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reported_seq)
  select * from unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::int[])
  on conflict (task_id, attempt, provider, model) do update set
    input_tokens = excluded.input_tokens,
    output_tokens = excluded.output_tokens,
    cache_read_tokens = excluded.cache_read_tokens,
    cache_write_tokens = excluded.cache_write_tokens,
    reported_seq = excluded.reported_seq
  where task_usage.reported_seq < excluded.reported_seq`;

/**
 * Writes one batch and the projector's checkpoint in a single transaction, so the rows and the
 * position they were read up to commit together or not at all.
 */
export async function writeTimelineBatch(options: {
  readonly dataSource: DataSource;
  readonly batch: TimelineBatch;
  /** `consumer_checkpoint.consumer_name`. */
  readonly checkpointName: string;
  /** The highest stream sequence of the batch. */
  readonly streamSequence: number;
}): Promise<BatchWriteResult> {
  const { batch } = options;
  return options.dataSource.transaction(async (manager) => {
    const insertedMessages = batch.messages.length > 0 ? await insertMessages(manager, batch) : 0;
    if (batch.toolCalls.length > 0) {
      await manager.query(COMPLETE_TOOL_RESULTS, [
        batch.toolCalls.map((call) => call.taskId),
        batch.toolCalls.map((call) => call.callId),
        batch.toolCalls.map((call) => call.tool),
      ]);
    }
    if (batch.usage.length > 0) {
      const rows = batch.usage;
      await manager.query(UPSERT_USAGE, [
        rows.map((row) => row.taskId),
        rows.map((row) => row.attempt),
        rows.map((row) => row.provider),
        rows.map((row) => row.model),
        rows.map((row) => row.inputTokens),
        rows.map((row) => row.outputTokens),
        rows.map((row) => row.cacheReadTokens),
        rows.map((row) => row.cacheWriteTokens),
        rows.map((row) => row.reportedSeq),
      ]);
    }
    await saveConsumerCheckpoint(manager, { consumerName: options.checkpointName, streamSequence: options.streamSequence });
    return { insertedMessages, upsertedUsage: batch.usage.length };
  });
}

async function insertMessages(manager: EntityManager, batch: TimelineBatch): Promise<number> {
  const rows = batch.messages;
  const runner = manager.queryRunner;
  const parameters = [
    rows.map((row) => row.id),
    rows.map((row) => row.taskId),
    rows.map((row) => row.seq),
    rows.map((row) => row.attempt),
    rows.map((row) => row.type),
    rows.map((row) => row.tool),
    rows.map((row) => row.callId),
    rows.map((row) => row.content),
    rows.map((row) => row.inputJson),
    rows.map((row) => row.output),
    rows.map((row) => row.outputTruncated),
    rows.map((row) => row.toolStatus),
    rows.map((row) => row.errorCode),
    rows.map((row) => row.noticeCode),
    rows.map((row) => row.createdAt),
    rows.map((row) => row.entryJson),
  ];
  if (!runner) throw new Error('a transaction manager always has a query runner');
  const result = await runner.query(INSERT_MESSAGES, parameters, true);
  return result.affected ?? 0;
}
