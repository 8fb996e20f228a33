import type { TranscriptConfig } from '../transcript.config';
import type { TimelineProjectorOptions } from './timeline.projector';

/** The projector's tuning, read from the service configuration (shared by the service and the rebuild). */
export function projectorSettings(config: TranscriptConfig): Pick<TimelineProjectorOptions, 'batch' | 'consumer' | 'maxToolOutputChars' | 'statsIntervalMs'> {
  return {
    batch: { maxMessages: config.TRANSCRIPT_BATCH_MAX_MESSAGES, maxBytes: config.TRANSCRIPT_BATCH_MAX_BYTES, maxWaitMs: config.TRANSCRIPT_BATCH_MAX_WAIT_MS },
    consumer: {
      ackWaitMs: config.TRANSCRIPT_ACK_WAIT_MS,
      maxDeliver: config.TRANSCRIPT_MAX_DELIVER,
      // A batch being written plus the next one already pulled, with room for redeliveries.
      maxAckPending: config.TRANSCRIPT_BATCH_MAX_MESSAGES * 4,
    },
    maxToolOutputChars: config.TRANSCRIPT_MAX_TOOL_OUTPUT_CHARS,
    statsIntervalMs: config.TRANSCRIPT_STATS_INTERVAL_MS,
  };
}
