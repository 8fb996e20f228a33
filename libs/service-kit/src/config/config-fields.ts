import { z } from 'zod';

/** Reusable environment fields, so every service spells and validates them the same way. */
export const portField = (defaultPort: number) =>
  z.coerce.number().int('must be an integer').min(0, 'must be 0-65535').max(65535, 'must be 0-65535').default(defaultPort);

/**
 * The listener of `GET /metrics`, apart from PORT; unset (or empty): no metrics, nothing loaded,
 * nothing listening. 0 picks a free port.
 */
export const metricsPortField = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z.coerce.number().int('must be an integer').min(0, 'must be 0-65535').max(65535, 'must be 0-65535').optional(),
);

export const natsUrlField = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .refine((value) => value.split(',').every((server) => /^(nats|tls|ws|wss):\/\/[^\s]+$/.test(server) || /^[\w.-]+:\d+$/.test(server)), {
    message: 'must be a NATS URL such as nats://127.0.0.1:4222 (comma-separated for a cluster)',
  });

export const databaseUrlField = z
  .string()
  .trim()
  .refine((value) => /^postgres(ql)?:\/\/[^\s]+$/.test(value), {
    message: 'must be a postgres:// URL',
  });

export const logLevelField = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace']).default('info');

/** Subject/stream namespace shared by every process of one deployment (empty for none). */
export const namespaceField = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,31}$/, 'must be lowercase letters, digits, _ or -, starting with a letter')
  .optional();

/** How long the first NATS connection may take to open before the process gives up at boot. */
export const natsConnectTimeoutField = z.coerce
  .number()
  .int('must be an integer')
  .min(1_000, 'must be at least 1000 (ms)')
  .max(300_000, 'must be at most 300000 (ms)')
  .default(10_000);

export const hostField = z.string().trim().min(1).default('127.0.0.1');

/** Environment keys whose values must never be logged. */
export const SENSITIVE_KEY_PATTERN = /(PASSWORD|SECRET|TOKEN|KEY|CREDENTIAL|DATABASE_URL|NATS_CREDS)/i;
