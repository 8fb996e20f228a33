import { z } from 'zod';
import { databaseUrlField, hostField, logLevelField, metricsPortField, namespaceField, natsConnectTimeoutField, natsUrlField, portField } from './config-fields';

/** Environment every service reads: its listeners (HTTP, and metrics when asked), log level and NATS. */
export function natsServiceConfigSchema(defaultPort: number) {
  return z.object({
    PORT: portField(defaultPort),
    HOST: hostField,
    /** Prometheus metrics on HOST:METRICS_PORT (docs/operations/observability.md); unset: off. */
    METRICS_PORT: metricsPortField,
    LOG_LEVEL: logLevelField,
    NATS_URL: natsUrlField,
    /** The process's NATS user (`.creds`: JWT and seed); required by a server in operator mode. */
    NATS_CREDENTIALS_FILE: z.string().trim().min(1).optional(),
    /** Milliseconds the boot waits for NATS to answer (10 s; more on a slow link or a crowded machine). */
    NATS_CONNECT_TIMEOUT_MS: natsConnectTimeoutField,
    SWITCHYARD_NAMESPACE: namespaceField,
  }).refine((config) => config.METRICS_PORT === undefined || config.METRICS_PORT === 0 || config.METRICS_PORT !== config.PORT, {
    path: ['METRICS_PORT'],
    message: 'must differ from PORT',
  });
}

/** Environment of services that also keep state in Postgres. */
export function databaseServiceConfigSchema(defaultPort: number) {
  return natsServiceConfigSchema(defaultPort).extend({ DATABASE_URL: databaseUrlField });
}

export type NatsServiceConfig = z.infer<ReturnType<typeof natsServiceConfigSchema>>;
export type DatabaseServiceConfig = z.infer<ReturnType<typeof databaseServiceConfigSchema>>;
