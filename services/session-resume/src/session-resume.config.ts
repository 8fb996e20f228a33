import { z } from 'zod';
import { databaseServiceConfigSchema } from '@switchyard/service-kit';

/** The session-resume service: the platform's keys plus the index consumers' delivery settings. */
export const sessionResumeConfigSchema = databaseServiceConfigSchema(8083).extend({
  /** How long an index event may take before JetStream redelivers it. */
  SESSION_RESUME_ACK_WAIT_MS: z.coerce.number().int('must be an integer').positive('must be positive').default(30_000),
  /** Deliveries of one event before it is dead-lettered (the database stayed down or refused it). */
  SESSION_RESUME_MAX_DELIVER: z.coerce.number().int('must be an integer').min(2, 'must be at least 2').default(10),
});

export type SessionResumeConfig = z.infer<typeof sessionResumeConfigSchema>;
