import 'reflect-metadata';
import { z } from 'zod';
import { createDataSource } from '@switchyard/persistence';
import { CONFIG_INVALID_EXIT_CODE, ConfigValidationError, loadConfig } from '@switchyard/service-kit';
import { runAdminCommand } from './admin/admin.command';

const adminConfigSchema = z.object({
  DATABASE_URL: z.string().min(1),
  GATEWAY_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .transform((url) => url.replace(/\/+$/, ''))
    .default('http://127.0.0.1:8080'),
  GATEWAY_ONE_TIME_CODE_TTL_MS: z.coerce.number().int().positive().default(30 * 60_000),
});

/** `npm run admin -- <command> --email <email>`: see admin/admin.command.ts. Output goes to the operator's terminal only. */
async function main(): Promise<void> {
  let config: z.infer<typeof adminConfigSchema>;
  try {
    config = loadConfig({ service: 'gateway-admin', schema: adminConfigSchema, env: process.env });
  } catch (error) {
    process.stderr.write(`${error instanceof ConfigValidationError ? error.message : String(error)}\n`);
    process.exitCode = CONFIG_INVALID_EXIT_CODE;
    return;
  }
  const dataSource = createDataSource({ url: config.DATABASE_URL, applicationName: 'gateway-admin', poolSize: 1 });
  try {
    await dataSource.initialize();
    const outcome = await runAdminCommand({ argv: process.argv.slice(2), dataSource, settings: { publicUrl: config.GATEWAY_PUBLIC_URL, ttlMs: config.GATEWAY_ONE_TIME_CODE_TTL_MS } });
    (outcome.exitCode === 0 ? process.stdout : process.stderr).write(`${outcome.lines.join('\n')}\n`);
    process.exitCode = outcome.exitCode;
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
  }
}

void main();
