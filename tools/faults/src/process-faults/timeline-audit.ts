import { Client } from 'pg';
import { STREAM_CATALOG, TIMELINE_MESSAGE_TYPES, subjects } from '@switchyard/contracts';
import { readStoredMessages, type MessagingConnection } from '@switchyard/messaging';
import { readTimelineRowKeys, type SqlRunner } from '@switchyard/persistence';

/** Unified message types the projector turns into a `task_message` row (status, log, usage make none). */
const ROW_MESSAGE_TYPES = new Set<string>(TIMELINE_MESSAGE_TYPES);

/** One `task.message` as JetStream stored it (so: acknowledged to its publisher). */
export interface StoredTaskMessage {
  readonly taskId: string;
  readonly seq: number;
  readonly attempt: number;
  readonly type: string;
  readonly text: string | undefined;
  readonly eventId: string;
  readonly streamSeq: number;
}

/** Every `task.message` in the namespace's TASK_EVENTS, in stream order, read with an ordered consumer. */
export async function readTaskMessages(connection: MessagingConnection): Promise<StoredTaskMessage[]> {
  const found: StoredTaskMessage[] = [];
  for await (const message of readStoredMessages(connection, { stream: STREAM_CATALOG.TASK_EVENTS.name, subject: subjects.eventTypeFilter('task.message') })) {
    const envelope = message.json() as { eventId: string; payload: { taskId: string; seq: number; attempt: number; message: { type: string; text?: string } } };
    found.push({
      taskId: envelope.payload.taskId,
      seq: envelope.payload.seq,
      attempt: envelope.payload.attempt,
      type: envelope.payload.message.type,
      text: envelope.payload.message.text,
      eventId: envelope.eventId,
      streamSeq: message.seq,
    });
  }
  return found;
}

/** What the stream and the table disagree on; every list empty means exactly once. */
export interface TimelineAudit {
  /** Row-producing messages JetStream holds. */
  readonly expectedRows: number;
  readonly rows: number;
  /** `taskId:seq` acknowledged by JetStream but not in `task_message`. */
  readonly missing: string[];
  /** `taskId:seq` stored more than once (in the table, or under two stream sequences). */
  readonly duplicated: string[];
  /** Rows JetStream never held. */
  readonly unexpected: string[];
  /** Rows whose id is not the event id of the stored message. */
  readonly mismatched: string[];
}

export async function auditTimeline(options: { readonly connection: MessagingConnection; readonly databaseUrl: string; readonly taskIds?: readonly string[] }): Promise<TimelineAudit> {
  const stored = (await readTaskMessages(options.connection)).filter((message) => !options.taskIds || options.taskIds.includes(message.taskId));
  const key = (taskId: string, seq: number): string => `${taskId}:${seq}`;
  const expected = new Map<string, StoredTaskMessage>();
  const duplicated: string[] = [];
  for (const message of stored.filter((candidate) => ROW_MESSAGE_TYPES.has(candidate.type))) {
    const id = key(message.taskId, message.seq);
    if (expected.has(id)) duplicated.push(`${id} (stream seqs ${expected.get(id)!.streamSeq} and ${message.streamSeq})`);
    else expected.set(id, message);
  }
  const taskIds = options.taskIds ?? [...new Set(stored.map((message) => message.taskId))];
  const rows = await withSqlRunner(options.databaseUrl, (runner) => readTimelineRowKeys(runner, taskIds));
  const seen = new Set<string>();
  const unexpected: string[] = [];
  const mismatched: string[] = [];
  for (const row of rows) {
    const id = key(row.taskId, row.seq);
    if (seen.has(id)) duplicated.push(`${id} (two rows)`);
    seen.add(id);
    const message = expected.get(id);
    if (!message) unexpected.push(id);
    else if (message.eventId !== row.id) mismatched.push(`${id}: row ${row.id}, event ${message.eventId}`);
  }
  const missing = [...expected.keys()].filter((id) => !seen.has(id));
  return { expectedRows: expected.size, rows: rows.length, missing, duplicated, unexpected, mismatched };
}

/** Runs `use` with a short-lived connection to the database, shaped as our readers take one. */
export async function withSqlRunner<Result>(databaseUrl: string, use: (runner: SqlRunner) => Promise<Result>): Promise<Result> {
  // Generous: a connect that took over 5 s while the cluster scenario loaded both cores failed a run in CI.
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 30_000 });
  await client.connect();
  try {
    return await use({ query: async <Row>(sql: string, parameters?: unknown[]) => (await client.query(sql, parameters)).rows as Row });
  } finally {
    await client.end();
  }
}

export function queryRows<Row extends object>(databaseUrl: string, sql: string, parameters: unknown[] = []): Promise<Row[]> {
  return withSqlRunner(databaseUrl, (runner) => runner.query<Row[]>(sql, parameters));
}
