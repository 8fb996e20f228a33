import type { SqlRunner } from '../sql-runner';

/** One stored event of an aggregate: its type, when it happened, and its payload as written. */
export interface StoredAggregateEvent {
  readonly type: string;
  readonly occurredAt: Date;
  readonly payload: Record<string, unknown>;
}

/** An aggregate's events of the given types, oldest first (by version). */
export async function readAggregateEvents(runner: SqlRunner, options: { readonly aggregateId: string; readonly types: readonly string[] }): Promise<StoredAggregateEvent[]> {
  const rows = await runner.query<Array<{ type: string; occurred_at: Date; payload: Record<string, unknown> }>>(
    `select type, occurred_at, payload -> 'payload' as payload from outbox_event
      where aggregate_id = $1 and type = any($2::text[]) order by version`,
    [options.aggregateId, [...options.types]],
  );
  return rows.map((row) => ({ type: row.type, occurredAt: row.occurred_at, payload: row.payload }));
}

/** The payload of an aggregate's first event of a type, or undefined when it has none. */
export async function readFirstEventPayload(runner: SqlRunner, options: { readonly aggregateId: string; readonly type: string }): Promise<Record<string, unknown> | undefined> {
  const rows = await runner.query<Array<{ payload: Record<string, unknown> }>>(
    `select payload -> 'payload' as payload from outbox_event where aggregate_id = $1 and type = $2 order by version limit 1`,
    [options.aggregateId, options.type],
  );
  return rows[0]?.payload;
}
