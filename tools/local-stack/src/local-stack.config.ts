import path from 'node:path';
import { z } from 'zod';
import { databaseUrlField, loadConfig, natsUrlField, portField } from '@switchyard/service-kit';

const localStackSchema = z.object({
  NATS_URL: natsUrlField.optional(),
  DATABASE_URL: databaseUrlField.optional(),
  /** Where the private NATS store, embedded database and logs live. */
  SWITCHYARD_HOME: z.string().min(1).default('.switchyard'),
  SWITCHYARD_GATEWAY_PORT: portField(8080),
  SWITCHYARD_HOST: z.string().min(1).default('127.0.0.1'),
  /** Print every log line of every child, not only warnings and lifecycle lines. */
  SWITCHYARD_VERBOSE: z.enum(['0', '1', 'true', 'false']).default('0').transform((value) => value === '1' || value === 'true'),
  SWITCHYARD_READY_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  /** The bus's keys (operator, accounts, signers): default `<home>/bus`, created on first start. */
  SWITCHYARD_BUS_AUTHORITY: z.string().min(1).optional(),
  SWITCHYARD_NAMESPACE: z.string().min(1).optional(),
});

export type LocalStackConfig = z.infer<typeof localStackSchema> & { readonly homeDirectory: string; readonly busAuthorityDirectory: string };

export function loadLocalStackConfig(env: NodeJS.ProcessEnv = process.env): LocalStackConfig {
  const config = loadConfig({ service: 'local-stack', schema: localStackSchema, env });
  const homeDirectory = path.resolve(config.SWITCHYARD_HOME);
  return { ...config, homeDirectory, busAuthorityDirectory: path.resolve(config.SWITCHYARD_BUS_AUTHORITY ?? path.join(homeDirectory, 'bus')) };
}
