import { z } from 'zod';
import { databaseServiceConfigSchema } from '@switchyard/service-kit';

const positiveInteger = (defaultValue: number) => z.coerce.number().int('must be an integer').positive('must be positive').default(defaultValue);

/** Projector settings; the defaults suit one projector per database under daemon load. */
export const transcriptConfigSchema = databaseServiceConfigSchema(8082).extend({
  /** Most messages written in one transaction. */
  TRANSCRIPT_BATCH_MAX_MESSAGES: positiveInteger(500),
  /** Payload bytes that close a batch early (large tool outputs). */
  TRANSCRIPT_BATCH_MAX_BYTES: positiveInteger(8 * 1024 * 1024),
  /** How long a batch waits for more messages after its first one. */
  TRANSCRIPT_BATCH_MAX_WAIT_MS: positiveInteger(25),
  /** Unacknowledged deliveries are redelivered after this (e.g. when a projector died mid-batch). */
  TRANSCRIPT_ACK_WAIT_MS: positiveInteger(30_000),
  TRANSCRIPT_MAX_DELIVER: positiveInteger(10),
  /** Tool output kept per row; longer output is stored as a preview with `output_truncated`. */
  TRANSCRIPT_MAX_TOOL_OUTPUT_CHARS: positiveInteger(64 * 1024),
  /** How often lag and throughput are logged (only while there is traffic or a backlog). */
  TRANSCRIPT_STATS_INTERVAL_MS: positiveInteger(10_000),
});

export type TranscriptConfig = z.infer<typeof transcriptConfigSchema>;
