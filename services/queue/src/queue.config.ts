import { z } from 'zod';
import { HEARTBEAT_GAP_TOLERANCE_MS } from '@switchyard/contracts';
import { secretKeysSettingSchema } from '@switchyard/persistence';
import { databaseServiceConfigSchema } from '@switchyard/service-kit';
import type { RetryBackoffSettings } from './domain/retry-backoff.policy';
import type { OverdueWorkWindows } from './sweeper/overdue-work.query';

const milliseconds = (defaultValue: number) => z.coerce.number().int('must be an integer').positive('must be positive').default(defaultValue);

/** Queue timings (design §4); every one configurable, defaults from the brief. */
export const queueConfigSchema = databaseServiceConfigSchema(8081).extend({
  /** A claimed task must report started within this, or it is requeued. */
  QUEUE_START_DEADLINE_MS: milliseconds(45_000),
  /** A running task's lease; the daemon renews it with its heartbeats. */
  QUEUE_LEASE_MS: milliseconds(30_000),
  /** How often the daemons heartbeat (their DAEMON_HEARTBEAT_INTERVAL_MS): gaps longer than it plus 1 s are logged. */
  QUEUE_HEARTBEAT_INTERVAL_MS: milliseconds(5_000),
  /**
   * A runtime silent this long is offline: shown so, and its live attempts are reconnecting (in their
   * grace). At least three heartbeat intervals plus a second: a daemon that is alive must never be
   * judged gone.
   */
  QUEUE_RUNTIME_OFFLINE_AFTER_MS: milliseconds(20_000),
  /**
   * A live attempt whose runtime stays silent this long is lost: it fails `runtime_offline` and is
   * retried. Until then a daemon that reconnects (a laptop lid, a Wi-Fi change) keeps running it and
   * delivers everything it buffered. At least the offline window.
   */
  QUEUE_RECONNECT_GRACE_MS: milliseconds(10 * 60_000),
  /** How often the sweeper looks for missed deadlines and silent runtimes. */
  QUEUE_SWEEP_INTERVAL_MS: milliseconds(5_000),
  /** Queued tasks of a runtime offline this long expire. */
  QUEUE_EXPIRE_OFFLINE_QUEUED_AFTER_MS: milliseconds(2 * 60 * 60 * 1000),
  QUEUE_DEFAULT_MAX_CONCURRENT_TASKS: z.coerce.number().int().positive().default(6),
  /** Attempts per task including the first run (design: bounded, default 2). */
  QUEUE_DEFAULT_MAX_ATTEMPTS: z.coerce.number().int().positive().default(2),
  /** An automatic retry waits about this long (jittered), doubling with each retry of the same work. */
  QUEUE_RETRY_BACKOFF_BASE_MS: milliseconds(5_000),
  /** The longest wait before a retry, also for a provider that asks for a longer retry-after. */
  QUEUE_RETRY_BACKOFF_MAX_MS: milliseconds(5 * 60 * 1000),
  QUEUE_RELAY_POLL_INTERVAL_MS: milliseconds(200),
  /**
   * Key of the task-scoped tokens; every replica needs the same one. Unset: a random key per
   * process (tokens then do not survive a restart), with a warning at boot.
   */
  QUEUE_TASK_TOKEN_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  QUEUE_TASK_TOKEN_TTL_MS: milliseconds(24 * 60 * 60 * 1000),
  /**
   * Keys sealing the agents' secret values at rest (comma-separated base64url 32-byte keys; the
   * first seals, all open: see docs/architecture/security.md for rotation). Every replica needs the
   * same. Unset: a random key per process, with a warning at boot.
   */
  QUEUE_SECRET_KEYS: secretKeysSettingSchema,
}).refine((config) => config.QUEUE_RUNTIME_OFFLINE_AFTER_MS >= minimumOfflineWindowMs(config.QUEUE_HEARTBEAT_INTERVAL_MS), {
  path: ['QUEUE_RUNTIME_OFFLINE_AFTER_MS'],
  message: 'must be at least three QUEUE_HEARTBEAT_INTERVAL_MS plus 1000 ms',
}).refine((config) => config.QUEUE_RECONNECT_GRACE_MS >= config.QUEUE_RUNTIME_OFFLINE_AFTER_MS, {
  path: ['QUEUE_RECONNECT_GRACE_MS'],
  message: 'must be at least QUEUE_RUNTIME_OFFLINE_AFTER_MS',
}).refine((config) => config.QUEUE_RETRY_BACKOFF_MAX_MS >= config.QUEUE_RETRY_BACKOFF_BASE_MS, {
  path: ['QUEUE_RETRY_BACKOFF_MAX_MS'],
  message: 'must be at least QUEUE_RETRY_BACKOFF_BASE_MS',
});

/** The retry backoff the config sets. */
export function retryBackoffOf(config: Pick<QueueConfig, 'QUEUE_RETRY_BACKOFF_BASE_MS' | 'QUEUE_RETRY_BACKOFF_MAX_MS'>): RetryBackoffSettings {
  return { baseMs: config.QUEUE_RETRY_BACKOFF_BASE_MS, maxMs: config.QUEUE_RETRY_BACKOFF_MAX_MS };
}

/** The windows the sweeper judges silence and deadlines by. */
export function overdueWindowsOf(config: QueueConfig): OverdueWorkWindows {
  return {
    offlineAfterMs: config.QUEUE_RUNTIME_OFFLINE_AFTER_MS,
    reconnectGraceMs: config.QUEUE_RECONNECT_GRACE_MS,
    startDeadlineMs: config.QUEUE_START_DEADLINE_MS,
    leaseMs: config.QUEUE_LEASE_MS,
    expireOfflineQueuedAfterMs: config.QUEUE_EXPIRE_OFFLINE_QUEUED_AFTER_MS,
  };
}

/** The shortest offline window that three missed heartbeats and a second of lateness cannot cross. */
export function minimumOfflineWindowMs(heartbeatIntervalMs: number): number {
  return 3 * heartbeatIntervalMs + HEARTBEAT_GAP_TOLERANCE_MS;
}

export type QueueConfig = z.infer<typeof queueConfigSchema>;
