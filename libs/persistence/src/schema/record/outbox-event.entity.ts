import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/**
 * Append-only event table: the system of record for an aggregate's events, relayed to JetStream
 * afterwards (published_at set once acknowledged). unique(aggregate_id, version) rejects a
 * concurrent writer that decided from stale state.
 */
@Entity({ name: 'outbox_event' })
@Unique('outbox_event_aggregate_version_unique', ['aggregateId', 'version'])
export class OutboxEventEntity {
  /** The event id (UUIDv7). */
  @PrimaryColumn({ name: 'id', type: 'uuid' })
  id!: string;

  @Column({ name: 'aggregate_id', type: 'text' })
  aggregateId!: string;

  @Column({ name: 'version', type: 'integer' })
  version!: number;

  @Column({ name: 'type', type: 'text' })
  type!: string;

  @Column({ name: 'subject', type: 'text' })
  subject!: string;

  @Column({ name: 'payload', type: 'jsonb' })
  payload!: unknown;

  /** NATS headers to publish with (traceparent, correlation ids, ...). */
  @Column({ name: 'headers', type: 'jsonb', default: () => "'{}'::jsonb" })
  headers!: Record<string, string>;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt!: Date | null;
}
