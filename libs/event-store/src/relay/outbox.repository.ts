import type { EntityManager } from 'typeorm';
import { EventStorageError } from '../errors/event-store.errors';
import { STORED_EVENT_COLUMNS, toStoredEvent, type StoredEvent, type StoredEventRow } from '../store/stored-event.types';

/**
 * The oldest unpublished events, grouped by aggregate in version order. Served by the foundation
 * migration's partial index on (aggregate_id, version) where published_at is null. Aggregates whose
 * last publish failed are skipped for a while so they cannot block the head of every batch.
 */
export const SELECT_UNPUBLISHED_SQL = `
  select ${STORED_EVENT_COLUMNS} from outbox_event
  where published_at is null and not (aggregate_id = any($2::text[]))
  order by aggregate_id, version
  limit $1`;

export function selectUnpublishedParameters(options: { batchSize: number; skippedAggregateIds: readonly string[] }): unknown[] {
  return [options.batchSize, [...options.skippedAggregateIds]];
}

export function toStoredEvents(rows: readonly StoredEventRow[]): StoredEvent[] {
  return rows.map(toStoredEvent);
}

/**
 * The only update ever made to an event row. `published_at is null` keeps the first timestamp when
 * a second relay (or a re-publish after a crash) marks the same row again.
 */
export async function markPublished(manager: EntityManager, eventIds: readonly string[]): Promise<void> {
  if (eventIds.length === 0) return;
  try {
    await manager.query('update outbox_event set published_at = now() where id = any($1::uuid[]) and published_at is null', [[...eventIds]]);
  } catch (error) {
    throw new EventStorageError(`marking ${eventIds.length} relayed event(s) as published failed`, error);
  }
}
