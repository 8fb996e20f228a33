import { hostname } from 'node:os';
import { z } from 'zod';
import { natsServiceConfigSchema } from '@switchyard/service-kit';

const milliseconds = (defaultValue: number) => z.coerce.number().int('must be an integer').positive('must be positive').default(defaultValue);

/** A default daemon id from the host name, as a valid subject token. */
export function defaultDaemonId(): string {
  return `daemon-${hostname().toLowerCase().replace(/[^a-z0-9_-]/g, '-')}`;
}

export const daemonConfigSchema = natsServiceConfigSchema(8084).extend({
  DAEMON_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be letters, digits, _ or - (it becomes a subject token)')
    .default(defaultDaemonId()),
  /** Task slots across all runtimes of this daemon. */
  DAEMON_MAX_SLOTS: z.coerce.number().int().positive().default(20),
  DAEMON_HEARTBEAT_INTERVAL_MS: milliseconds(5_000),
  DAEMON_REDETECT_INTERVAL_MS: milliseconds(60_000),
  DAEMON_VERSION_PROBE_TIMEOUT_MS: milliseconds(10_000),
  /** Where agent CLIs are looked up; defaults to the daemon's own PATH. */
  DAEMON_PATH: z.string().optional(),
  SWITCHYARD_HOME: z.string().min(1).default('.switchyard'),
});

export type DaemonConfig = z.infer<typeof daemonConfigSchema>;
