import { z } from 'zod';
import { databaseUrlField, hostField, logLevelField, namespaceField, natsUrlField, portField } from './config-fields';

/** Environment every service reads: its listener, log level and NATS. */
export function natsServiceConfigSchema(defaultPort: number) {
  return z.object({
    PORT: portField(defaultPort),
    HOST: hostField,
    LOG_LEVEL: logLevelField,
    NATS_URL: natsUrlField,
    /** The process's NATS user (`.creds`: JWT and seed); required by a server in operator mode. */
    NATS_CREDENTIALS_FILE: z.string().trim().min(1).optional(),
    SWITCHYARD_NAMESPACE: namespaceField,
  });
}

/** Environment of services that also keep state in Postgres. */
export function databaseServiceConfigSchema(defaultPort: number) {
  return natsServiceConfigSchema(defaultPort).extend({ DATABASE_URL: databaseUrlField });
}

export type NatsServiceConfig = z.infer<ReturnType<typeof natsServiceConfigSchema>>;
export type DatabaseServiceConfig = z.infer<ReturnType<typeof databaseServiceConfigSchema>>;
