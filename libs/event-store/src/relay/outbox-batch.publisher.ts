import { HEADERS } from '@switchyard/contracts';
import { extractTraceContext, headersFromRecord, publish, type MessagingConnection } from '@switchyard/messaging';
import type { StoredEvent } from '../store/stored-event.types';

export interface PublishBatchOptions {
  readonly connection: MessagingConnection;
  /** Ordered by aggregate, then version (as `SELECT_UNPUBLISHED_SQL` returns them). */
  readonly events: readonly StoredEvent[];
  /** Aggregates published in parallel; each aggregate's events strictly one after another. */
  readonly concurrency: number;
  /** Publish attempts per event before its aggregate is given up for this batch. */
  readonly publishAttempts: number;
  readonly publishTimeoutMs?: number;
  /** Aborts retries and stops taking new events (stop()). */
  readonly signal: AbortSignal;
  /** Awaited after each acknowledged publish, before the row is marked (tests inject crashes here). */
  readonly afterPublish?: (event: StoredEvent) => Promise<void> | void;
}

export interface BatchFailure {
  readonly event: StoredEvent;
  readonly error: unknown;
}

export interface BatchOutcome {
  /** Acknowledged by JetStream (stored now or before, see `duplicates`): to be marked published. */
  readonly published: StoredEvent[];
  /** How many of `published` JetStream already held (a re-publish after a crash or a second relay). */
  readonly duplicates: number;
  /** At most one per aggregate: the event its chain stopped at. */
  readonly failures: BatchFailure[];
}

/**
 * Publishes a batch with `Nats-Msg-Id` = event id, so JetStream stores each event once even when it
 * is published again. Version n+1 of an aggregate is only sent after n was acknowledged (in this
 * batch, or marked published before it was read); when n fails, the rest of that aggregate waits
 * for a later batch. That holds the per-aggregate order even when two relays overlap.
 */
export async function publishBatch(options: PublishBatchOptions): Promise<BatchOutcome> {
  const chains = groupByAggregate(options.events);
  const published: StoredEvent[] = [];
  const failures: BatchFailure[] = [];
  let duplicates = 0;
  let nextChain = 0;

  const work = async (): Promise<void> => {
    for (let chain = chains[nextChain++]; chain !== undefined; chain = chains[nextChain++]) {
      for (const event of chain) {
        if (options.signal.aborted) return;
        try {
          const result = await publishEvent(options, event);
          published.push(event);
          if (result.duplicate) duplicates += 1;
          await options.afterPublish?.(event);
        } catch (error) {
          failures.push({ event, error });
          break;
        }
      }
    }
  };

  const workers = Math.max(1, Math.min(options.concurrency, chains.length));
  await Promise.all(Array.from({ length: workers }, work));
  return { published, duplicates, failures };
}

function publishEvent(options: PublishBatchOptions, event: StoredEvent): ReturnType<typeof publish> {
  const headers = { ...event.headers, [HEADERS.eventType]: event.type };
  return publish(options.connection, {
    subject: event.subject,
    // The stored envelope, verbatim (jsonb may reorder object keys; the content is the same).
    data: event.envelope,
    messageId: event.eventId,
    headers,
    // The trace of the request that appended the event, not whatever is active in the relay.
    traceContext: extractTraceContext(headersFromRecord(event.headers)),
    retry: { maxAttempts: options.publishAttempts },
    signal: options.signal,
    ...(options.publishTimeoutMs === undefined ? {} : { timeoutMs: options.publishTimeoutMs }),
  });
}

function groupByAggregate(events: readonly StoredEvent[]): StoredEvent[][] {
  const chains = new Map<string, StoredEvent[]>();
  for (const event of events) {
    const chain = chains.get(event.aggregateId);
    if (chain) chain.push(event);
    else chains.set(event.aggregateId, [event]);
  }
  for (const chain of chains.values()) chain.sort((left, right) => left.version - right.version);
  return [...chains.values()];
}
